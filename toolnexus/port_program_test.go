//go:build !js

package toolnexus_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/wasm/toolnexus"
)

// TestPortPortProgram is a program written against the Go port's API
// (package toolnexus), compiled against toolnexus with only the import line
// changed: if a name or a shape it uses drifts from the port's, this file
// stops compiling. It also runs, on an in-process model.
func TestPortPortProgram(t *testing.T) {
	ctx := context.Background()
	type refundIn struct {
		Order string `json:"order"`
	}
	refund := toolnexus.NativeToolReflect("refund", "refund an order", func(ctx context.Context, in refundIn) (string, error) {
		return "refunded " + in.Order, nil
	})
	lookup := toolnexus.RelayTool("lookup", "host lookup", nil)
	tk, err := toolnexus.CreateToolkit(ctx, toolnexus.Options{Builtins: map[string]bool{"bash": false}, ExtraTools: []toolnexus.Tool{refund, lookup}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if got := toolnexus.ToOpenAI(tk.Tools()); len(got) == 0 || got[0].(toolnexus.OpenAITool).Type != "function" {
		t.Fatalf("ToOpenAI = %v", got)
	}
	if toolnexus.Sanitize("my server") != "my_server" || toolnexus.ExpandEnvHeaders(nil) != nil {
		t.Fatal("Sanitize / ExpandEnvHeaders")
	}

	var mu sync.Mutex
	var events []toolnexus.MetricEvent
	var style toolnexus.ClientStyle = toolnexus.StyleOpenAI
	calls := 0
	client := toolnexus.CreateInProcessClient(toolnexus.InProcessOptions{
		Model: "local",
		Generate: func(req toolnexus.InProcessRequest) (toolnexus.InProcessResponse, error) {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			if n == 1 {
				return toolnexus.InProcessResponse{ToolCalls: []toolnexus.InProcessToolCall{
					{ID: "c1", Name: "refund", Arguments: map[string]any{"order": "42"}},
					{ID: "c2", Name: "lookup", Arguments: `{"q":"x"}`},
				}}, nil
			}
			last, _ := req.Messages[len(req.Messages)-1].(map[string]any)
			return toolnexus.InProcessResponse{Content: "last: " + last["content"].(string)}, nil
		},
		Hooks: &toolnexus.Hooks{
			BeforeTool: func(ctx context.Context, ev toolnexus.BeforeToolEvent) (*toolnexus.ToolOverride, error) {
				if ev.Name == "refund" {
					return &toolnexus.ToolOverride{Args: map[string]any{"order": "43"}}, nil
				}
				return nil, nil
			},
			AfterLLM: func(ctx context.Context, ev toolnexus.AfterLLMEvent) error { return nil },
		},
		OnMetric: func(e toolnexus.MetricEvent) { mu.Lock(); events = append(events, e); mu.Unlock() },
		WaitFor: func(r toolnexus.Request) (toolnexus.Answer, error) {
			return toolnexus.AnswerOutput(r.ID, "found x"), nil
		},
	})
	res, err := client.Run(ctx, "refund 42 and look x up", tk)
	if err != nil || res.Status != toolnexus.RunStatusDone || res.Text != "last: found x" {
		t.Fatalf("res %+v err %v", res, err)
	}
	if first, _ := res.Messages[0].(map[string]any); first["role"] != "user" {
		t.Fatalf("messages = %v", res.Messages)
	}
	if res.ToolCalls[0].Output != "refunded 43" {
		t.Fatalf("records = %+v", res.ToolCalls)
	}
	mu.Lock()
	last := events[len(events)-1]
	mu.Unlock()
	if last.Event != "run" || last.Turns != 2 || last.ToolCalls != 2 {
		t.Fatalf("run event = %+v", last)
	}

	// The stateless and stateful conversation forms.
	conv := client.Conversation(tk)
	conv.Reset()
	_ = conv.Messages
	if _, err := client.Ask(ctx, "again", tk, ""); err != nil {
		t.Fatal(err)
	}
	_ = client.ConversationStore()
	_ = toolnexus.NewInMemoryConversationStore()

	// Shapes the program only needs to compile against.
	_ = toolnexus.ClientOptions{Style: style, HTTPClient: &http.Client{}, Retries: 2, RetryableStatuses: []int{520},
		OnError:       func(info toolnexus.ErrorInfo) toolnexus.Tier { return toolnexus.TierRetry },
		BodyTransform: func(body map[string]any) map[string]any { return body }}
	_ = toolnexus.TranslateRequest{Messages: []any{}, Tools: []any{}, Toolkit: tk, ToolChoice: "auto", System: "s", MaxTokens: 10}
	var tr toolnexus.TranslateResult
	_ = tr.ToolCallsJSON()
	_ = toolnexus.TranslatedToolCall{}.String()
	var rte *toolnexus.RunTimeoutError
	_ = errors.As(err, &rte)
	var se toolnexus.StreamEvent
	_ = se.Args["x"]
	_, _ = toolnexus.ParseMcpConfig([]byte(`{"mcpServers":{}}`))
	_ = toolnexus.LoadSkills()
	if !strings.HasPrefix(toolnexus.RunLimitTimeout, "time") {
		t.Fatal("RunLimitTimeout")
	}
}
