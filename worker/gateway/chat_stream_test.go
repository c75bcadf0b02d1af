package gateway

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// chatChunks reads a streamed chat completion: the chunks, and whether it
// ended with data: [DONE].
func chatChunks(t *testing.T, body string) (chunks []map[string]any, done bool) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if line == "[DONE]" {
			done = true
			continue
		}
		var c map[string]any
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("chunk %q: %v", line, err)
		}
		chunks = append(chunks, c)
	}
	return chunks, done
}

// assembled puts a stream's deltas together as a client does: the text,
// the tool calls by index, the last finish_reason and the usage chunk.
func assembled(chunks []map[string]any) (text string, calls []map[string]string, finish string, usage map[string]any) {
	for _, c := range chunks {
		if u, ok := c["usage"].(map[string]any); ok {
			usage = u
		}
		choices, _ := c["choices"].([]any)
		for _, ch := range choices {
			choice := ch.(map[string]any)
			if f, ok := choice["finish_reason"].(string); ok {
				finish = f
			}
			delta, _ := choice["delta"].(map[string]any)
			if s, ok := delta["content"].(string); ok {
				text += s
			}
			tcs, _ := delta["tool_calls"].([]any)
			for _, raw := range tcs {
				tc := raw.(map[string]any)
				i := int(tc["index"].(float64))
				for len(calls) <= i {
					calls = append(calls, map[string]string{})
				}
				fn, _ := tc["function"].(map[string]any)
				if id, _ := tc["id"].(string); id != "" {
					calls[i]["id"] = id
				}
				name, _ := fn["name"].(string)
				args, _ := fn["arguments"].(string)
				calls[i]["name"] += name
				calls[i]["arguments"] += args
			}
		}
	}
	return text, calls, finish, usage
}

// TestChatCompletionsStream: a provider that answers a stream request in
// one piece (the scripted model does) still gives a well-formed stream
// whose text and tool call equal the non-streamed answer's.
func TestChatCompletionsStream(t *testing.T) {
	for _, style := range []string{"openai", "anthropic"} {
		t.Run(style, func(t *testing.T) {
			hs := newHarness(t, func(env map[string]string) { env["LLM_STYLE"] = style })
			for _, prompt := range []string{"say hi", "refund order 42"} {
				msgs := []any{map[string]any{"role": "user", "content": prompt}}
				_, whole := hs.Post("/v1/chat/completions", map[string]any{"messages": msgs})
				body, _ := json.Marshal(map[string]any{"messages": msgs, "stream": true, "stream_options": map[string]any{"include_usage": true}})
				rec := hs.Do(http.MethodPost, "/v1/chat/completions", string(body))
				if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
					t.Fatalf("%s: %d %s", prompt, rec.Code, rec.Body)
				}
				chunks, done := chatChunks(t, rec.Body.String())
				text, calls, finish, usage := assembled(chunks)
				msg := whole["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
				want, _ := msg["content"].(string)
				if !done || text != want || usage["total_tokens"] == nil || chunks[0]["object"] != "chat.completion.chunk" {
					t.Fatalf("%s: text %q want %q, done %v, usage %v\n%s", prompt, text, want, done, usage, rec.Body)
				}
				wantCalls, _ := msg["tool_calls"].([]any)
				if len(calls) != len(wantCalls) {
					t.Fatalf("%s: calls %v want %v", prompt, calls, wantCalls)
				}
				for i, raw := range wantCalls {
					fn := raw.(map[string]any)["function"].(map[string]any)
					if calls[i]["name"] != fn["name"] || calls[i]["arguments"] != fn["arguments"] || calls[i]["id"] == "" {
						t.Fatalf("%s: call %v want %v", prompt, calls[i], fn)
					}
				}
				if wantFinish := whole["choices"].([]any)[0].(map[string]any)["finish_reason"]; finish != wantFinish {
					t.Fatalf("%s: finish %q want %v", prompt, finish, wantFinish)
				}
			}
			// A provider failing before the stream starts is the usual JSON error.
			code, body := hs.Post("/v1/chat/completions", map[string]any{"stream": true, "messages": []any{map[string]any{"role": "user", "content": "fail"}}})
			if code != http.StatusBadGateway || workertest.ErrCode(body) != "upstream_error" {
				t.Fatalf("fail: %d %v", code, body)
			}
		})
	}
}

func TestModelsList(t *testing.T) {
	hs := newHarness(t, nil)
	rec := hs.Do(http.MethodGet, "/v1/models", "")
	var body struct {
		Object string `json:"object"`
		Data   []struct {
			ID     string `json:"id"`
			Object string `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %s %v", rec.Code, rec.Body, err)
	}
	if body.Object != "list" || len(body.Data) != 1 || body.Data[0].ID != "mock-model" || body.Data[0].Object != "model" {
		t.Fatalf("models = %+v", body)
	}
}
