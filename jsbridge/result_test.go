//go:build js && wasm

package jsbridge

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// TestAppendRunResultMatchesStructTags: the hand-written encoding decodes to
// the same value as encoding/json's encoding of the struct.
func TestAppendRunResultMatchesStructTags(t *testing.T) {
	results := []core.RunResult{
		{Status: "done", ToolCalls: []core.ToolRecord{}},
		{
			Text:     "hi <b> \"q\"",
			Messages: []any{json.RawMessage(`{"role":"user","content":"x"}`), map[string]any{"role": "assistant", "content": "y"}},
			ToolCalls: []core.ToolRecord{{ID: "c1", Name: "t", Args: json.RawMessage(`{"a":1}`), Output: "out\n", IsError: true},
				{ID: "c2", Name: "t", Args: json.RawMessage(`{"a":2}`), OriginalArgs: json.RawMessage(`{"a":1}`), Output: "edited"}},
			ToolCallCount: 1, Turns: 2, Usage: core.Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3},
			Model: "m", Status: "pending", Limit: "",
			Pending: &core.Request{ID: "r", Kind: "approval", Prompt: "ok?", Data: map[string]any{"args": map[string]any{"a": 1.0}}},
		},
		{Status: "incomplete", Limit: "maxTurns"},
	}
	for _, r := range results {
		got, err := appendRunResult(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		// Lists are [] where encoding/json would write null: JS code can
		// iterate them without a check.
		if r.Messages == nil {
			r.Messages = []any{}
		}
		if r.ToolCalls == nil {
			r.ToolCalls = []core.ToolRecord{}
		}
		want, _ := json.Marshal(r)
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("invalid JSON %s: %v", got, err)
		}
		_ = json.Unmarshal(want, &w)
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) {
			t.Errorf("got  %s\nwant %s", gb, wb)
		}
	}
}
