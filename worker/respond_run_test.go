package worker

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// TestRunResponseEncoding: the hand-written encoder of a run's answer
// writes what jsonx writes by reflection from the struct tags.
func TestRunResponseEncoding(t *testing.T) {
	full := core.RunResult{
		Text: "done \"5\"\n", Messages: []any{json.RawMessage(`{"role": "user", "content": "add 2 and 3"}`), json.RawMessage(`{"role":"assistant","content":null}`), map[string]any{"role": "tool", "content": "5"}},
		ToolCalls: []core.ToolCall{
			{ID: "call_1", Name: "add", RawArgs: json.RawMessage(`{"a": 2, "b": 3}`), Output: "5"},
			{ID: "call_2", Name: "refund", RawArgs: json.RawMessage(`{"order":7}`), OriginalArgs: json.RawMessage(`{"order":42}`), Output: "refunded", Edited: true},
			{ID: "call_3", Name: "refund", RawArgs: nil, Output: "declined: no", IsError: true, Declined: true},
		},
		ToolCallCount: 3, Turns: 4, Usage: core.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15},
		Model: "m", ProviderModel: "m-2026", Status: core.StatusPending, Limit: "maxTurns",
		Pending: &core.Request{ID: "req_1", Kind: "approval", Prompt: "Allow?", Data: map[string]any{"args": map[string]any{"order": 42.0}, "raw": json.RawMessage(`{"a": [1, 2]}`)}, ExpiresAt: "2026-05-01T13:00:00Z"},
	}
	for _, tt := range []struct {
		name string
		out  RunResponse
	}{
		{"zero", RunResponse{}},
		{"empty lists", RunResponse{RunResult: core.RunResult{Messages: []any{}, ToolCalls: []core.ToolCall{}, Status: "done"}}},
		{"full", RunResponse{RunResult: full, State: "tn1.abc", StateExpiresAt: "2026-05-01T13:00:00Z"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, err := jsonx.Marshal(tt.out)
			if err != nil {
				t.Fatal(err)
			}
			got, err := appendRunResponse(nil, tt.out)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(compactJSON(want)) {
				t.Errorf("appendRunResponse:\n%s\njsonx:\n%s", got, want)
			}
		})
	}
}
