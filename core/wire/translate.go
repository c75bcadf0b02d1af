package wire

import (
	"encoding/json"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// The conversions of Client.Translate: an OpenAI-shaped request goes to an
// OpenAI server as it is, and is converted for an Anthropic one.

// JoinRaw joins JSON values with commas.
func JoinRaw(msgs []json.RawMessage) []byte {
	var b []byte
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	return b
}

// JoinList is JoinRaw in brackets: a JSON array, or nil when items is empty.
func JoinList(items []json.RawMessage) []byte {
	if len(items) == 0 {
		return nil
	}
	return append(append([]byte{'['}, JoinRaw(items)...), ']')
}

// AnthropicTranslateBody converts an OpenAI-shaped request to the messages API.
func AnthropicTranslateBody(o *Params, reqMsgs, reqTools []json.RawMessage, systemOverride string, stream bool) ([]byte, error) {
	var system []string
	var msgs []map[string]any
	// appendUser adds blocks to the trailing user message, or starts one:
	// the messages API wants tool results of one turn in one user message.
	appendUser := func(blocks ...any) {
		if n := len(msgs); n > 0 && msgs[n-1]["role"] == "user" {
			msgs[n-1]["content"] = append(msgs[n-1]["content"].([]any), blocks...)
			return
		}
		msgs = append(msgs, map[string]any{"role": "user", "content": append([]any{}, blocks...)})
	}
	for i, raw := range reqMsgs {
		m := gjson.ParseBytes(raw)
		if !m.IsObject() {
			return nil, fmt.Errorf("core: translate: messages[%d] is not an object", i)
		}
		switch role := m.Get("role").String(); role {
		case "system", "developer":
			system = append(system, contentText(m.Get("content")))
		case "user":
			appendUser(map[string]any{"type": "text", "text": contentText(m.Get("content"))})
		case "tool":
			appendUser(map[string]any{"type": "tool_result", "tool_use_id": m.Get("tool_call_id").String(), "content": contentText(m.Get("content"))})
		case "assistant":
			var blocks []any
			if t := contentText(m.Get("content")); t != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": t})
			}
			for _, tc := range m.Get("tool_calls").Array() {
				var input any = map[string]any{}
				if args := tc.Get("function.arguments").String(); strings.TrimSpace(args) != "" {
					var err error
					if input, err = jsonx.Decode([]byte(args)); err != nil {
						return nil, fmt.Errorf("core: translate: messages[%d]: tool call arguments: %w", i, err)
					}
				}
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": tc.Get("id").String(), "name": tc.Get("function.name").String(), "input": input})
			}
			msgs = append(msgs, map[string]any{"role": "assistant", "content": blocks})
		default:
			return nil, fmt.Errorf("core: translate: messages[%d] has unknown role %q", i, role)
		}
	}
	var tools []any
	for _, raw := range reqTools {
		t := gjson.ParseBytes(raw)
		fn := t.Get("function")
		var schema any = map[string]any{"type": "object", "properties": map[string]any{}}
		if p := fn.Get("parameters"); p.IsObject() {
			// Value recurses: the messages only pass through as bytes,
			// but a tool's parameters are decoded.
			if err := jsonx.CheckText([]byte(p.Raw), "core: ", "translate: a tool's parameters"); err != nil {
				return nil, err
			}
			schema = p.Value()
		}
		tools = append(tools, map[string]any{"name": fn.Get("name").String(), "description": fn.Get("description").String(), "input_schema": schema})
	}
	o2 := *o
	o2.SystemPrompt = strings.Join(system, "\n\n")
	if systemOverride != "" {
		o2.SystemPrompt = systemOverride
	}
	encMsgs := make([]json.RawMessage, 0, len(msgs))
	for _, m := range msgs {
		b, err := jsonx.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("core: translate: %w", err)
		}
		encMsgs = append(encMsgs, b)
	}
	var toolBytes []byte
	if len(tools) > 0 {
		toolBytes, _ = jsonx.Marshal(tools)
	}
	return Anthropic{}.Body(nil, &o2, JoinRaw(encMsgs), toolBytes, stream), nil
}

// contentText flattens an OpenAI content value (a string or a list of
// parts) to its text: the text parts, one after the other, as written
// (they are pieces of one message, so nothing is put between them).
func contentText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.String()
	}
	var parts []string
	for _, p := range c.Array() {
		if p.Get("type").String() == "text" {
			parts = append(parts, p.Get("text").String())
		}
	}
	return strings.Join(parts, "")
}

// OpenAIFinishReason maps a provider's stop reason to OpenAI's
// finish_reason: end_turn, stop_sequence and pause_turn → "stop";
// max_tokens and model_context_window_exceeded → "length"; refusal →
// "content_filter"; tool_use (and OpenAI's old function_call) →
// "tool_calls". OpenAI's own reasons and unknown ones pass through. A
// reply with tool calls is "tool_calls" whatever its reason.
func OpenAIFinishReason(reason string, toolCalls bool) string {
	if toolCalls {
		return "tool_calls"
	}
	for _, m := range finishReasons {
		if m[0] == reason {
			return m[1]
		}
	}
	return reason
}

// finishReasons pairs provider stop reasons with OpenAI's.
var finishReasons = [...][2]string{
	{"end_turn", "stop"}, {"stop_sequence", "stop"}, {"pause_turn", "stop"},
	{"max_tokens", "length"}, {"model_context_window_exceeded", "length"},
	{"refusal", "content_filter"}, {"tool_use", "tool_calls"}, {"function_call", "tool_calls"},
}

// HasSystemMessage reports whether OpenAI messages carry a system (or
// developer) message of their own.
func HasSystemMessage(msgs []json.RawMessage) bool {
	for _, m := range msgs {
		// ParseBytes(…).Get rather than GetBytes: the translation already
		// links ParseBytes, GetBytes would add its own copy of the path walk.
		switch gjson.ParseBytes(m).Get("role").String() {
		case "system", "developer":
			return true
		}
	}
	return false
}

// AnthropicToolChoice maps OpenAI's tool_choice to Anthropic's: "required"
// (or "any") → {type:any}, "none" → {type:none}, a named function →
// {type:tool,name}. "auto", nil and anything else give nil: Anthropic's
// default. The result is JSON text, ready to send.
func AnthropicToolChoice(choice any) json.RawMessage {
	switch v := choice.(type) {
	case string:
		switch v {
		case "required", "any":
			return json.RawMessage(`{"type":"any"}`)
		case "none":
			return json.RawMessage(`{"type":"none"}`)
		}
	case map[string]any:
		fn, _ := v["function"].(map[string]any)
		if name, _ := fn["name"].(string); name != "" {
			return append(jsonx.AppendString([]byte(`{"type":"tool","name":`), name), '}')
		}
	}
	return nil
}
