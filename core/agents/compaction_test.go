package agents

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
)

func raw(msgs ...string) []any {
	out := make([]any, len(msgs))
	for i, m := range msgs {
		out[i] = json.RawMessage(m)
	}
	return out
}

func TestCompactorKeepsToolPairsTogether(t *testing.T) {
	long := strings.Repeat("x", 200)
	openai := raw(
		`{"role":"user","content":"`+long+`"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
		`{"role":"tool","tool_call_id":"c1","content":"`+long+`"}`,
		`{"role":"assistant","content":"first answer"}`,
		`{"role":"user","content":"second question"}`,
		`{"role":"assistant","content":"second answer"}`,
	)
	anthropic := raw(
		`{"role":"user","content":"`+long+`"}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{}}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`+long+`"}]}`,
		`{"role":"assistant","content":[{"type":"text","text":"done"}]}`,
	)
	cases := []struct {
		name      string
		msgs      []any
		max, keep int
		older     int // messages handed to Summarize; 0: unchanged
	}{
		{"under budget", openai, 10_000, 0, 0},
		{"openai tail from the last user turn", openai, 50, 30, 4},
		{"a tool result is never the tail's start", anthropic, 50, 80, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []any
			out, err := Compactor(CompactorOptions{MaxTokens: tc.max, KeepTail: tc.keep, Summarize: func(older []any) (string, error) {
				got = older
				return "they talked", nil
			}})(tc.msgs)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.older {
				t.Fatalf("summarized %d messages, want %d", len(got), tc.older)
			}
			if tc.older == 0 {
				if len(out) != len(tc.msgs) {
					t.Errorf("changed an uncompactible transcript: %d → %d", len(tc.msgs), len(out))
				}
				return
			}
			if len(out) != len(tc.msgs)-tc.older+1 || !strings.Contains(string(messageJSON(out[0])), "they talked") {
				t.Errorf("compacted = %d messages, first %s", len(out), messageJSON(out[0]))
			}
			if !isUserTurn(out[1]) {
				t.Errorf("tail starts with %s, want a user turn", messageJSON(out[1]))
			}
		})
	}
}

func TestCompactionInRuntime(t *testing.T) {
	var seen []int
	model := newFakeModel(map[string]script{"chatty": func(msgs []map[string]any) core.GenerateResponse {
		seen = append(seen, len(msgs))
		return core.GenerateResponse{Text: strings.Repeat("words ", 40)}
	}})
	summaries := 0
	a := New("chatty", Spec{Soul: "chatty", Compact: Compactor(CompactorOptions{MaxTokens: 100, KeepTail: 70, Summarize: func(older []any) (string, error) {
		summaries++
		return "earlier chat", nil
	}})})
	rt := NewRuntime(Options{Generate: model.generate, Registry: a.Registry()})
	defer rt.Close(rt.Root, nil)
	h, _ := rt.Spawn(rt.Root, "chatty", nil)
	for i := 0; i < 4; i++ {
		rt.Wake(h, "tell me more")
		if r := rt.Wait(h, 0); r.Status != TaskStatusDone {
			t.Fatalf("turn %d: %+v", i, r)
		}
	}
	// system + user (1), system + 2 + user (2), then bounded by compaction.
	if summaries == 0 || seen[len(seen)-1] > 5 {
		t.Errorf("model saw %v messages with %d summaries; want compaction to bound the transcript", seen, summaries)
	}

	failing := New("chatty", Spec{Soul: "chatty", Compact: func([]any) ([]any, error) { return nil, errors.New("summarizer down") }})
	rt2 := NewRuntime(Options{Generate: model.generate, Registry: failing.Registry()})
	defer rt2.Close(rt2.Root, nil)
	h2, _ := rt2.Spawn(rt2.Root, "chatty", nil)
	rt2.Wake(h2, "one")
	rt2.Wait(h2, 0)
	rt2.Wake(h2, "two")
	if r := rt2.Wait(h2, 0); r.Status != TaskStatusError || !strings.Contains(r.Text, "summarizer down") {
		t.Errorf("failing compaction = %+v, want an error result", r)
	}
}
