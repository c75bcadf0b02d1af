package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// deep nests n objects: past the depth limit it must be refused before
// anything recursive parses it (issue 15).
func deep(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }

// FuzzParse feeds untrusted bytes to both styles' reply parsers. None may
// panic (under js/wasm a panic ends the whole instance); whatever parses
// must make valid transcript messages.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"model":"m","choices":[{"message":{"content":"hi","tool_calls":[{"id":"c1","function":{"name":"t","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}]}`), true)
	f.Add([]byte(`{"model":"m","content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"c1","name":"t","input":{"a":1}}],"stop_reason":"tool_use"}`), false)
	f.Add([]byte(`{"choices":[{"message":{"tool_calls":[{"function":{"arguments":{"x":[]}}}]}}]}`), true)
	f.Add([]byte(`{"content":[{"type":"tool_use"}]}`), false)
	f.Add([]byte(`{"error":null,"choices":[{}]}`), true)
	f.Add([]byte(`{"choices":[{"message":`+deep(100_000)+`}]}`), true)
	f.Add([]byte(`{"content":[{"type":"tool_use","input":`+deep(100_000)+`}]}`), false)
	f.Fuzz(func(t *testing.T, body []byte, openai bool) {
		var w Format = Anthropic{}
		if openai {
			w = OpenAI{}
		}
		r, err := w.Parse(body)
		if err != nil {
			return
		}
		if msg := w.AssistantMessage(r); !json.Valid(msg) {
			t.Fatalf("assistant message is not valid JSON: %s", msg)
		}
		for _, m := range w.ToolResults([]ToolOutcome{{ID: "x\"\n", Content: string(body)}}) {
			if !json.Valid(m) {
				t.Fatalf("tool result is not valid JSON: %s", m)
			}
		}
	})
}
