package gateway

import (
	"net/http"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/worker/internal/workertest"
)

func TestChatCompletionsAnthropic(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["LLM_STYLE"] = "anthropic"
		env["LLM_BASE_URL"] = strings.TrimSuffix(env["LLM_BASE_URL"], "/v1")
		env["MODELS"] = "mock-model,claude-x"
	})
	tools := []any{map[string]any{"type": "function", "function": map[string]any{"name": "add", "parameters": map[string]any{"type": "object"}}}}
	code, body := hs.Post("/v1/chat/completions", map[string]any{"model": "claude-x", "messages": []any{
		map[string]any{"role": "system", "content": "be brief"},
		map[string]any{"role": "user", "content": "add 2 and 3"},
	}, "tools": tools, "temperature": 0.2})
	if code != http.StatusOK {
		t.Fatalf("%d %v", code, body)
	}
	choice := body["choices"].([]any)[0].(map[string]any)
	msg := choice["message"].(map[string]any)
	calls, _ := msg["tool_calls"].([]any)
	if body["object"] != "chat.completion" || choice["finish_reason"] != "tool_calls" || len(calls) != 1 || msg["content"] != nil {
		t.Fatalf("%v", body)
	}
	fn := calls[0].(map[string]any)["function"].(map[string]any)
	if fn["name"] != "add" || fn["arguments"] != `{"a":2,"b":3}` {
		t.Fatalf("call %v", calls[0])
	}
	usage := body["usage"].(map[string]any)
	if usage["prompt_tokens"] != float64(10) || usage["completion_tokens"] != float64(5) || usage["total_tokens"] != float64(15) {
		t.Fatalf("usage %v", usage)
	}
	sent := hs.LLM.Requests()[0]
	if !strings.Contains(sent, `"system":"be brief"`) || !strings.Contains(sent, `"model":"claude-x"`) || !strings.Contains(sent, `"input_schema"`) {
		t.Fatalf("sent %s", sent)
	}
	code, body = hs.Post("/v1/chat/completions", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "add 2 and 3"},
		msg,
		map[string]any{"role": "tool", "tool_call_id": calls[0].(map[string]any)["id"], "content": "5"},
	}})
	choice = body["choices"].([]any)[0].(map[string]any)
	if code != http.StatusOK || choice["finish_reason"] != "stop" || choice["message"].(map[string]any)["content"] != "done: 5" {
		t.Fatalf("%d %v", code, body)
	}
	for _, bad := range []map[string]any{
		{},
		{"messages": []any{}},
		{"messages": []any{"hi"}},
		{"messages": []any{map[string]any{"role": "robot", "content": "x"}}},
		{"messages": []any{map[string]any{"role": "user", "content": "x"}}, "n": 2},
		{"messages": []any{map[string]any{"role": "user", "content": "x"}}, "tools": []any{map[string]any{"type": "function"}}},
		{"messages": []any{map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"function": map[string]any{"name": "f", "arguments": "{oops"}}}}}},
	} {
		if code, body := hs.Post("/v1/chat/completions", bad); code != http.StatusBadRequest || workertest.ErrCode(body) != "invalid_request" {
			t.Errorf("%v: %d %v", bad, code, body)
		}
	}
	if code, body := hs.Post("/v1/chat/completions", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "fail"}}}); code != http.StatusBadGateway || workertest.ErrCode(body) != "upstream_error" {
		t.Errorf("upstream: %d %v", code, body)
	}
}

func TestChatCompletionsNeedsToken(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["API_TOKEN"] = workertest.APIToken })
	body := `{"messages":[{"role":"user","content":"hi"}]}`
	if rec := hs.Do(http.MethodPost, "/v1/chat/completions", body); rec.Code != http.StatusUnauthorized {
		t.Fatalf("without a token: %d", rec.Code)
	}
	if rec := hs.Do(http.MethodPost, "/v1/chat/completions", body, "Authorization", "Bearer "+workertest.APIToken); rec.Code != http.StatusOK {
		t.Fatalf("with the token: %d %s", rec.Code, rec.Body)
	}
}

func TestMetricsIncludeCoreClients(t *testing.T) {
	hs := newHarness(t, nil)
	for i := 0; i < 2; i++ {
		if code, body := hs.Post("/v1/run", map[string]any{"prompt": "add 2 and 3"}); code != http.StatusOK {
			t.Fatalf("%d %v", code, body)
		}
	}
	hs.Post("/v1/chat/completions", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi"}}})
	text := hs.Do(http.MethodGet, "/metrics", "").Body.String()
	for _, want := range []string{
		`toolnexus_worker_runs_total{endpoint="run",status="done"} 2`,
		`toolnexus_llm_requests_total{model="mock-model",status="200"} 5`,
		`toolnexus_tool_calls_total{tool="add",source="native",is_error="false"} 2`,
		`toolnexus_llm_tokens_total{type="prompt"} 50`,
		`toolnexus_llm_request_duration_seconds_count{model="mock-model"} 5`,
		`toolnexus_worker_runs_total{endpoint="chat_completions",status="done"} 1`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "# TYPE toolnexus_llm_requests_total counter"); n != 1 {
		t.Errorf("the family header appears %d times", n)
	}
}
