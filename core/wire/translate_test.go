package wire

import (
	"encoding/json"
	"testing"

	"github.com/tidwall/gjson"
)

func TestOpenAIFinishReason(t *testing.T) {
	tests := []struct {
		reason    string
		toolCalls bool
		want      string
	}{
		{"end_turn", false, "stop"},
		{"stop_sequence", false, "stop"},
		{"max_tokens", false, "length"},
		{"refusal", false, "content_filter"},
		{"tool_use", false, "tool_calls"},
		{"end_turn", true, "tool_calls"},
		{"stop", false, "stop"},
		{"length", false, "length"},
		{"", false, ""},
	}
	for _, tt := range tests {
		if got := OpenAIFinishReason(tt.reason, tt.toolCalls); got != tt.want {
			t.Errorf("OpenAIFinishReason(%q, %v) = %q, want %q", tt.reason, tt.toolCalls, got, tt.want)
		}
	}
}

// OpenAI content parts are pieces of one message: Anthropic gets their
// text joined as written.
func TestAnthropicTranslateBodyJoinsContentParts(t *testing.T) {
	msg := json.RawMessage(`{"role":"user","content":[{"type":"text","text":"one "},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"two"}]}`)
	b, err := AnthropicTranslateBody(&Params{Model: "m"}, []json.RawMessage{msg}, nil, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(b, "messages.0.content.0.text").String(); got != "one two" {
		t.Fatalf("text = %q in %s", got, b)
	}
}
