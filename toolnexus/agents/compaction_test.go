package agents

import (
	"context"
	"strings"
	"testing"

	tn "github.com/toolnexus/wasm/toolnexus"
)

func msg(role, content string) map[string]any {
	return map[string]any{"role": role, "content": content}
}

// toolResultTurn is an Anthropic tool result: a user message, but not a
// place where the kept tail may start.
func toolResultTurn() map[string]any {
	return map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": "42"}}}
}

func TestCompactorKeepsASafeTail(t *testing.T) {
	// Every message counts 1 token, so the budgets read as message counts.
	count := func(m []any) int { return len(m) }
	cases := []struct {
		name  string
		opts  CompactorOptions
		msgs  []any
		want  []string // roles (and first words) of the result; nil: no override
		older int      // how many messages were summarized
	}{
		{"under budget: no override", CompactorOptions{MaxTokens: 10, CountTokens: count},
			[]any{msg("system", "soul"), msg("user", "q")}, nil, 0},
		{"over: soul, summary, tail from a user turn", CompactorOptions{MaxTokens: 3, KeepTail: 2, CountTokens: count},
			[]any{msg("system", "soul"), msg("user", "q1"), msg("assistant", "a1"), msg("user", "q2"), msg("assistant", "a2")},
			[]string{"system:soul", "system:[Summary", "user:q2", "assistant:a2"}, 2},
		{"a tool result never opens the tail", CompactorOptions{MaxTokens: 3, KeepTail: 2, CountTokens: count},
			[]any{msg("system", "soul"), msg("user", "q1"), msg("assistant", "a1"), toolResultTurn(), msg("assistant", "done")},
			[]string{"system:soul", "system:[Summary"}, 4},
		{"flush adds the memory reminder", CompactorOptions{MaxTokens: 3, KeepTail: 2, CountTokens: count, FlushToMemory: true},
			[]any{msg("user", "q1"), msg("assistant", "a1"), msg("user", "q2"), msg("assistant", "a2")},
			[]string{"system:[Summary", "system:Before", "user:q2", "assistant:a2"}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			older := 0
			tc.opts.Summarize = func(o []any) (string, error) { older = len(o); return "earlier", nil }
			ov, err := Compactor(tc.opts)(context.Background(), tn.BeforeLLMEvent{Messages: tc.msgs})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if ov != nil {
					t.Fatalf("override %v, want none", ov.Messages)
				}
				return
			}
			var got []string
			for _, m := range ov.Messages {
				mm := m.(map[string]any)
				c, _ := mm["content"].(string)
				got = append(got, mm["role"].(string)+":"+strings.Fields(c + " ")[0])
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") || older != tc.older {
				t.Errorf("got %v (summarized %d), want %v (%d)", got, older, tc.want, tc.older)
			}
		})
	}
}
