//go:build js && wasm

package jsbridge

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// TestAppendRunResultMatchesStructTags: the hand-written encoding decodes to
// the same value as encoding/json's encoding of the struct.
func TestAppendRunResultMatchesStructTags(t *testing.T) {
	results := []core.RunResult{
		{Status: "done", ToolCalls: []core.ToolCall{}},
		{
			Text: "hi <b> \"q\"",
			Messages: []any{json.RawMessage(`{"role":"user","content":"x"}`), map[string]any{"role": "assistant", "content": "y"},
				jsonx.Checked(`{"role":"user","content":"z"}`)},
			ToolCalls: []core.ToolCall{{ID: "c1", Name: "t", Args: map[string]any{"a": 1.0}, RawArgs: json.RawMessage(`{"a":1}`), Output: "out\n", IsError: true},
				{ID: "c2", Name: "t", RawArgs: json.RawMessage(`{"a":2}`), OriginalArgs: json.RawMessage(`{"a":1}`), Output: "edited", Edited: true},
				{ID: "c3", Name: "t", RawArgs: json.RawMessage(`{}`), Declined: true}},
			ToolCallCount: 1, Turns: 2, Usage: core.Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3},
			Model: "m", Status: "pending", Limit: "",
			Pending: &core.Request{ID: "r", Kind: "approval", Prompt: "ok?", Data: map[string]any{"args": map[string]any{"a": 1.0}}},
		},
		{Status: "incomplete", Limit: "maxTurns"},
	}
	for _, r := range results {
		got, err := appendRunResult(nil, r, true)
		if err != nil {
			t.Fatal(err)
		}
		// Lists are [] where encoding/json would write null: JS code can
		// iterate them without a check.
		if r.Messages == nil {
			r.Messages = []any{}
		}
		if r.ToolCalls == nil {
			r.ToolCalls = []core.ToolCall{}
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

// TestAppendRunResultWithoutMessages: a conversation's result leaves the
// transcript out and keeps everything else.
func TestAppendRunResultWithoutMessages(t *testing.T) {
	r := core.RunResult{Text: "t", Messages: []any{json.RawMessage(`{"role":"user","content":"x"}`)}, Status: "done", Turns: 1}
	got, err := appendRunResult(nil, r, false)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("invalid JSON %s: %v", got, err)
	}
	if _, ok := m["messages"]; ok {
		t.Errorf("messages present: %s", got)
	}
	if m["text"] != "t" || m["status"] != "done" || m["turns"] != 1.0 {
		t.Errorf("other keys lost: %s", got)
	}
}
