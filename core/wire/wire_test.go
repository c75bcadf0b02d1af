package wire

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestBodyParams(t *testing.T) {
	tests := []struct {
		name      string
		f         Format
		p         Params
		maxTokens string // the body's max_tokens, "" when absent
		system    string // path of the system prompt in the body
	}{
		{"openai default", OpenAI{}, Params{Model: "m", SystemPrompt: "s"}, "", "messages.0.content"},
		{"openai max", OpenAI{}, Params{Model: "m", MaxTokens: 7}, "7", ""},
		{"openai max in params", OpenAI{}, Params{Model: "m", MaxTokens: 7, MaxTokensInParams: true}, "", ""},
		{"anthropic default", Anthropic{}, Params{Model: "m", SystemPrompt: "s"}, "4096", "system"},
		{"anthropic max", Anthropic{}, Params{Model: "m", MaxTokens: 7}, "7", ""},
		{"anthropic max in params", Anthropic{}, Params{Model: "m", MaxTokensInParams: true}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.f.Body(nil, &tt.p, []byte(`{"role":"user","content":"hi"}`), nil, true)
			doc := gjson.ParseBytes(b)
			if !gjson.ValidBytes(b) || doc.Get("model").String() != "m" || !doc.Get("stream").Bool() {
				t.Fatalf("body = %s", b)
			}
			if got := doc.Get("max_tokens").Raw; got != tt.maxTokens {
				t.Errorf("max_tokens = %q, want %q in %s", got, tt.maxTokens, b)
			}
			if tt.system != "" && doc.Get(tt.system).String() != "s" {
				t.Errorf("no system prompt at %s: %s", tt.system, b)
			}
		})
	}
}

// Both decoders assemble the same reply from their own events and report
// the same deltas.
func TestStreamDecoders(t *testing.T) {
	type event struct{ name, data string }
	tests := []struct {
		name   string
		f      Format
		events []event
	}{
		{"openai", OpenAI{}, []event{
			{"", `{"model":"m","choices":[{"delta":{"content":"he"}}]}`},
			{"", `{"choices":[{"delta":{"content":"y","tool_calls":[{"index":0,"id":"c1","function":{"name":"look","arguments":"{\"q\""}}]}}]}`},
			{"", `{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]},"finish_reason":"tool_calls"}]}`},
			{"", `{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`},
			{"", `[DONE]`},
		}},
		{"anthropic", Anthropic{}, []event{
			{"message_start", `{"message":{"model":"m","usage":{"input_tokens":3}}}`},
			{"content_block_start", `{"index":0,"content_block":{"type":"text","text":""}}`},
			{"content_block_delta", `{"index":0,"delta":{"type":"text_delta","text":"he"}}`},
			{"content_block_delta", `{"index":0,"delta":{"type":"text_delta","text":"y"}}`},
			{"content_block_start", `{"index":1,"content_block":{"type":"tool_use","id":"c1","name":"look"}}`},
			{"content_block_delta", `{"index":1,"delta":{"type":"input_json_delta","partial_json":"{\"q\""}}`},
			{"content_block_delta", `{"index":1,"delta":{"type":"input_json_delta","partial_json":":1}"}}`},
			{"message_delta", `{"delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":2}}`},
			{"message_stop", `{}`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.f.NewStream()
			var text, args string
			var first Delta
			done := false
			for _, e := range tt.events {
				var err error
				done, err = s.Event(e.name, []byte(e.data), func(d Delta) {
					switch d.Type {
					case DeltaText:
						text += d.Text
					case DeltaToolCall:
						if d.ID != "" {
							first = d
						}
						args += d.Args
					}
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			r := s.Response()
			if !done || !s.Complete() || text != "hey" || args != `{"q":1}` || first.ID != "c1" || first.Name != "look" || first.Index != 0 {
				t.Fatalf("done %v, text %q, args %q, first %+v", done, text, args, first)
			}
			if r.Text != "hey" || r.Model != "m" || len(r.ToolCalls) != 1 || r.ToolCalls[0] != (ToolCall{ID: "c1", Name: "look", Arguments: `{"q":1}`}) || r.Usage != (Usage{3, 2, 5}) {
				t.Fatalf("response = %+v", r)
			}
		})
	}
}

// A rewritten reply is sent back as rebuilt, not as the provider wrote it.
func TestDropMessage(t *testing.T) {
	r, err := Anthropic{}.Parse([]byte(`{"content":[{"type":"thinking","thinking":"…","signature":"x"},{"type":"text","text":"a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(Anthropic{}.AssistantMessage(r), "content.0.type").String(); got != "thinking" {
		t.Fatalf("the provider's blocks should go back verbatim, first is %q", got)
	}
	r.Text = "b"
	DropMessage(&r)
	if got := string(Anthropic{}.AssistantMessage(r)); got != `{"role":"assistant","content":[{"type":"text","text":"b"}]}` {
		t.Fatalf("rebuilt = %s", got)
	}
}
