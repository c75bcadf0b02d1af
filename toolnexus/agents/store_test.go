package agents

import (
	"encoding/json"
	"reflect"
	"testing"

	tn "github.com/toolnexus/wasm/toolnexus"
)

func TestPortStoreKeepsThePortsShape(t *testing.T) {
	souls := soulFinder(map[string]Def{"coder": {Soul: "you code"}, "quiet": {}})
	user := json.RawMessage(`{"role":"user","content":"hi"}`)
	summary := map[string]any{"role": "system", "content": "[Summary of earlier conversation]\nx"}
	cases := []struct {
		name     string
		id       string
		soulLead bool
		saved    []any
		stored   []any // what the user's store holds
		got      []any // what the kernel reads back
	}{
		{
			"openai: soul first, messages decoded", "root/coder.1", true, []any{user},
			[]any{map[string]any{"role": "system", "content": "you code"}, map[string]any{"role": "user", "content": "hi"}},
			[]any{map[string]any{"role": "user", "content": "hi"}},
		},
		{
			"no soul: a leading system message is the transcript's own", "root/quiet.2", true, []any{summary, user},
			[]any{summary, map[string]any{"role": "user", "content": "hi"}},
			[]any{summary, map[string]any{"role": "user", "content": "hi"}},
		},
		{
			"anthropic: the soul is not a message", "root/coder.1", false, []any{user},
			[]any{map[string]any{"role": "user", "content": "hi"}},
			[]any{map[string]any{"role": "user", "content": "hi"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inner := tn.NewInMemoryConversationStore()
			s := portStore{inner: storeToCore(inner), soulOf: souls, soulLead: tc.soulLead}
			if err := s.Save(tc.id, tc.saved); err != nil {
				t.Fatal(err)
			}
			if stored, _ := inner.Get(tc.id); !reflect.DeepEqual(stored, tc.stored) {
				t.Errorf("stored %v, want %v", stored, tc.stored)
			}
			if got, _ := s.Get(tc.id); !reflect.DeepEqual(got, tc.got) {
				t.Errorf("read back %v, want %v", got, tc.got)
			}
		})
	}
}
