package toolnexus

import (
	"context"
	"strings"
	"testing"
)

// Conformance with the Go port's Translate and request body.

// TestPortTranslateRequestFields: Messages and Tools take any values,
// Toolkit's tools are declared first, and ToolChoice, System and MaxTokens
// reach the body in each provider's shape.
func TestPortTranslateRequestFields(t *testing.T) {
	weather := NativeTool("weather", "get weather", nil, func(context.Context, map[string]any) (string, error) { return "", nil })
	tk := mustToolkit(t, weather)
	msgs := []any{
		map[string]any{"role": "system", "content": "from the messages"},
		map[string]any{"role": "user", "content": "hi"},
	}
	extra := []any{map[string]any{"type": "function", "function": map[string]any{"name": "extra", "parameters": map[string]any{"type": "object"}}}}
	tests := []struct {
		name   string
		style  Style
		req    TranslateRequest
		checks map[string]string // gjson path → raw JSON wanted
	}{
		{"openai defaults", StyleOpenAI, TranslateRequest{Messages: msgs, Tools: extra, Toolkit: tk, ToolChoice: "required"}, map[string]string{
			"messages.#": "2", "messages.0.content": `"from the messages"`, "tools.#": "2", "tools.0.function.name": `"weather"`,
			"tools.1.function.name": `"extra"`, "tool_choice": `"required"`,
		}},
		{"openai system and max tokens", StyleOpenAI, TranslateRequest{Messages: msgs[1:], System: "be brief", MaxTokens: 77}, map[string]string{
			"messages.0.role": `"system"`, "messages.0.content": `"be brief"`, "max_tokens": "77", "tool_choice": "",
		}},
		{"anthropic tool choice", StyleAnthropic, TranslateRequest{Messages: msgs, Tools: extra, ToolChoice: map[string]any{"type": "function", "function": map[string]any{"name": "extra"}}}, map[string]string{
			"system": `"from the messages"`, "tool_choice": `{"type":"tool","name":"extra"}`, "tools.0.name": `"extra"`,
		}},
		{"anthropic system override", StyleAnthropic, TranslateRequest{Messages: msgs, System: "be brief", ToolChoice: "auto", MaxTokens: 99}, map[string]string{
			"system": `"be brief"`, "tool_choice": "", "max_tokens": "99",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newScripted(t, tc.style, turn{Calls: []ToolRequest{call("c1", "weather", `{"city":"Oslo"}`)}})
			res, err := m.client(ClientOptions{SystemPrompt: "client prompt"}).Translate(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			body := m.sent()[0].Body
			for path, want := range tc.checks {
				if got := body.Get(path).Raw; got != want {
					t.Errorf("%s = %s, want %s (body %s)", path, got, want, body.Raw)
				}
			}
			if res.Raw == nil || len(res.ToolCalls) != 1 {
				t.Fatalf("res = %+v", res)
			}
			calls := res.ToolCallsJSON()
			b, _ := marshalJSON(calls)
			if string(b) != `[{"function":{"arguments":"{\"city\":\"Oslo\"}","name":"weather"},"id":"c1","type":"function"}]` {
				t.Fatalf("ToolCallsJSON = %s", b)
			}
			if s := res.ToolCalls[0].String(); s != `weather({"city":"Oslo"}) id=c1` {
				t.Fatalf("String = %q", s)
			}
		})
	}
}

// TestPortToolChoiceAuto: an OpenAI run sends tool_choice "auto" when it
// declares tools, and not otherwise (nor for Anthropic, nor over a
// RequestParams tool_choice).
func TestPortToolChoiceAuto(t *testing.T) {
	var c counter
	tests := []struct {
		name   string
		style  Style
		opts   ClientOptions
		tools  []Tool
		wanted string
	}{
		{"openai with tools", StyleOpenAI, ClientOptions{}, []Tool{c.tool("t")}, `"auto"`},
		{"openai without tools", StyleOpenAI, ClientOptions{}, nil, ""},
		{"anthropic", StyleAnthropic, ClientOptions{}, []Tool{c.tool("t")}, ""},
		{"host's own choice", StyleOpenAI, ClientOptions{RequestParams: map[string]any{"tool_choice": "none"}}, []Tool{c.tool("t")}, `"none"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newScripted(t, tc.style, turn{Text: "ok"})
			if _, err := m.client(tc.opts).Run(context.Background(), "go", mustToolkit(t, tc.tools...)); err != nil {
				t.Fatal(err)
			}
			raw := m.sent()[0].Body.Raw
			if got := m.sent()[0].Body.Get("tool_choice").Raw; got != tc.wanted || strings.Count(raw, `"tool_choice"`) > 1 {
				t.Fatalf("tool_choice = %q, want %q (body %s)", got, tc.wanted, raw)
			}
		})
	}
}
