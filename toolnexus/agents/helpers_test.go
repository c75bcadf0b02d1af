package agents

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	tn "github.com/toolnexus/wasm/toolnexus"
)

// chatModel is an OpenAI-style model behind an http.RoundTripper: reply
// picks the assistant message from the model id and the request's
// messages. Every reply costs 10 tokens.
type chatModel struct {
	mu    sync.Mutex
	reply func(model string, msgs []map[string]any) map[string]any
	calls int
}

func (m *chatModel) RoundTrip(r *http.Request) (*http.Response, error) {
	var req struct {
		Model    string           `json:"model"`
		Messages []map[string]any `json:"messages"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &req)
	m.mu.Lock()
	m.calls++
	m.mu.Unlock()
	msg := m.reply(req.Model, req.Messages)
	msg["role"] = "assistant"
	out, _ := json.Marshal(map[string]any{
		"choices": []any{map[string]any{"message": msg}},
		"usage":   map[string]any{"prompt_tokens": 6, "completion_tokens": 4, "total_tokens": 10},
	})
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(string(out)))}, nil
}

func say(text string) map[string]any { return map[string]any{"content": text} }

func call(id, name, args string) map[string]any {
	return map[string]any{"content": nil, "tool_calls": []any{map[string]any{
		"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args},
	}}}
}

// toolResults are the contents of the request's tool messages.
func toolResults(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		if m["role"] == "tool" {
			s, _ := m["content"].(string)
			out = append(out, s)
		}
	}
	return out
}

// gatedTool suspends for approval and answers "opened" once approved.
var gatedTool = tn.Tool{
	Name: "open_vault", Description: "needs a person's approval",
	InputSchema: tn.JSONSchema{"type": "object", "properties": map[string]any{}},
	Source:      tn.SourceCustom,
	Execute: func(_ map[string]any, tc *tn.ToolContext) (tn.ToolResult, error) {
		if tc != nil && tc.Answer != nil && tc.Answer.Ok {
			return tn.ToolResult{Output: "opened"}, nil
		}
		return tn.Pending(tn.Request{Kind: "approval", Prompt: "open the vault?"}), nil
	},
}
