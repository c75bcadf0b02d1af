package core

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestTranslateStreamBothStyles: the deltas TranslateStream reports add up
// to the reply it returns — the text, and each tool call (id and name on
// its first delta, the arguments in pieces) — and to what Translate returns.
func TestTranslateStreamBothStyles(t *testing.T) {
	for _, tt := range []struct {
		style Style
		raw   string
	}{{StyleOpenAI, openAIStreamToolTurn}, {StyleAnthropic, anthropicStreamToolTurn}} {
		for _, split := range []int{1, 7, 1 << 20} {
			t.Run(string(tt.style)+"/split"+strconv.Itoa(split), func(t *testing.T) {
				m := newScripted(t, tt.style, turn{Raw: tt.raw, Split: split})
				var text strings.Builder
				var calls []TranslatedToolCall
				var argPieces int
				req := TranslateRequest{Messages: raws(`{"role":"user","content":"check"}`)}
				res, err := m.client(ClientOptions{}).TranslateStream(context.Background(), req, func(e StreamEvent) {
					switch e.Type {
					case EventText:
						text.WriteString(e.Delta)
					case EventToolCallDelta:
						for len(calls) <= e.Index {
							calls = append(calls, TranslatedToolCall{})
						}
						c := &calls[e.Index]
						if e.ID != "" {
							c.ID = e.ID
						}
						c.Name += e.Name
						c.Arguments += e.ArgsJSON
						if e.ArgsJSON != "" {
							argPieces++
						}
					default:
						t.Errorf("unexpected event %+v", e)
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				if text.String() != "Let me check café" || res.Text != text.String() {
					t.Fatalf("streamed %q, returned %q", text.String(), res.Text)
				}
				if len(calls) != 2 || len(res.ToolCalls) != 2 || argPieces < 3 {
					t.Fatalf("streamed calls %+v (%d argument pieces), returned %+v", calls, argPieces, res.ToolCalls)
				}
				for i, c := range calls {
					if c != res.ToolCalls[i] {
						t.Fatalf("call %d streamed %+v, returned %+v", i, c, res.ToolCalls[i])
					}
				}
				if !strings.Contains(m.sent()[0].Body.Raw, `"stream":true`) {
					t.Fatalf("the request did not ask for a stream: %s", m.sent()[0].Body.Raw)
				}
			})
		}
	}
}
