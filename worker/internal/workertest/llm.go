package workertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// ScriptedLLM is a provider stand-in that answers from the conversation, so
// that it needs no per-test script:
//
//   - a user prompt mentioning "refund then fail": call refund {order: 13},
//     and answer HTTP 503 when shown its result
//   - last turn is a user prompt mentioning "refund": call refund {order: 42}
//   - a user prompt mentioning "add": call add {a: 2, b: 3}
//   - a user prompt mentioning "review order": call task {agent: billing,
//     prompt: "refund order 42"} (the agent-team tests' support agent);
//     "review orders 42 and 43" delegates "refund orders 42 and 43", which
//     refunds 42, then 43 (two approvals in a row)
//   - a user prompt mentioning "fail": answer HTTP 503
//   - last turn is a tool result: answer "done: <the tool output>"
//   - anything else: answer "hello"
//
// It speaks the OpenAI chat-completions and Anthropic messages formats and
// records every request body and auth header.
type ScriptedLLM struct {
	srv *httptest.Server

	mu      sync.Mutex
	bodies  []string
	apiKeys []string
}

func NewScriptedLLM(t testing.TB) *ScriptedLLM {
	t.Helper()
	m := &ScriptedLLM{}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

func (m *ScriptedLLM) URL() string { return m.srv.URL }

// Requests returns the bodies received so far.
func (m *ScriptedLLM) Requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.bodies...)
}

// APIKeys returns the key each request carried (bearer or x-api-key).
func (m *ScriptedLLM) APIKeys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.apiKeys...)
}

func (m *ScriptedLLM) serve(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if k := r.Header.Get("X-Api-Key"); k != "" {
		key = k
	}
	m.mu.Lock()
	m.bodies = append(m.bodies, string(b))
	m.apiKeys = append(m.apiKeys, key)
	m.mu.Unlock()
	anthropic := strings.HasSuffix(r.URL.Path, "/v1/messages")
	if !anthropic && !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, "unknown path "+r.URL.Path, http.StatusNotFound)
		return
	}
	msgs := gjson.GetBytes(b, "messages").Array()
	if len(msgs) == 0 {
		http.Error(w, "no messages", http.StatusBadRequest)
		return
	}
	last := msgs[len(msgs)-1]
	prompt, toolOutput := lastTurn(last, anthropic)
	var tool, args string
	if first := msgs[0].Get("content").String(); strings.HasPrefix(first, "chain: ") && !anthropic {
		// "chain: <tool> <args> | <tool> <args> | …": the calls one per
		// turn, in order, then "done: <the last output>".
		steps := strings.Split(strings.TrimPrefix(first, "chain: "), " | ")
		n := 0
		for _, m := range msgs {
			if m.Get("role").String() == "tool" {
				n++
			}
		}
		if n >= len(steps) {
			m.Reply(w, anthropic, "done: "+toolOutput, "", "")
			return
		}
		tool, args, _ = strings.Cut(strings.TrimSpace(steps[n]), " ")
		m.Reply(w, anthropic, "", tool, args)
		return
	}
	switch {
	case toolOutput == "refunded order 13":
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
		return
	case toolOutput == "refunded order 42" && strings.Contains(string(b), "refund orders 42 and 43"):
		tool, args = "refund", `{"order":43}`
	case toolOutput != "":
		m.Reply(w, anthropic, "done: "+toolOutput, "", "")
		return
	case strings.HasPrefix(prompt, "call "):
		// "call <tool> <arguments JSON>": any tool, for the built-in tests.
		tool, args, _ = strings.Cut(strings.TrimPrefix(prompt, "call "), " ")
	case strings.Contains(prompt, "review orders 42 and 43"):
		tool, args = "task", `{"agent":"billing","prompt":"refund orders 42 and 43"}`
	case strings.Contains(prompt, "review order"):
		// The support agent of the agent-team tests hands the refund to billing.
		tool, args = "task", `{"agent":"billing","prompt":"refund order 42"}`
	case strings.Contains(prompt, "refund then fail"):
		tool, args = "refund", `{"order":13}`
	case strings.Contains(prompt, "fail"):
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
		return
	case strings.Contains(prompt, "refund"):
		tool, args = "refund", `{"order":42}`
	case strings.Contains(prompt, "add"):
		tool, args = "add", `{"a":2,"b":3}`
	}
	m.Reply(w, anthropic, "hello", tool, args)
}

// lastTurn reads the prompt or the tool output of the last message.
func lastTurn(msg gjson.Result, anthropic bool) (prompt, toolOutput string) {
	if !anthropic {
		if msg.Get("role").String() == "tool" {
			return "", msg.Get("content").String()
		}
		return msg.Get("content").String(), ""
	}
	content := msg.Get("content")
	if content.Type == gjson.String {
		return content.String(), ""
	}
	for _, block := range content.Array() {
		switch block.Get("type").String() {
		case "tool_result":
			c := block.Get("content")
			if c.IsArray() {
				return "", c.Get("0.text").String()
			}
			return "", c.String()
		case "text":
			prompt += block.Get("text").String()
		}
	}
	return prompt, ""
}

// Reply writes one model reply: a call of tool with args when tool is set,
// else text, in the Anthropic or the OpenAI format.
func (m *ScriptedLLM) Reply(w http.ResponseWriter, anthropic bool, text, tool, args string) {
	var v any
	switch {
	case anthropic && tool != "":
		v = map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": "mock-model",
			"content":     []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": tool, "input": json.RawMessage(args)}},
			"stop_reason": "tool_use", "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}
	case anthropic:
		v = map[string]any{"id": "msg_2", "type": "message", "role": "assistant", "model": "mock-model",
			"content":     []any{map[string]any{"type": "text", "text": text}},
			"stop_reason": "end_turn", "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}
	case tool != "":
		v = map[string]any{"id": "c1", "object": "chat.completion", "model": "mock-model",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": map[string]any{
				"role": "assistant", "content": nil,
				"tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
					"function": map[string]any{"name": tool, "arguments": args}}}}}},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
	default:
		v = map[string]any{"id": "c2", "object": "chat.completion", "model": "mock-model",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": text}}},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
	}
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		panic(fmt.Sprintf("mock reply: %v", err))
	}
}
