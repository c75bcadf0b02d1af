package core

import (
	"encoding/json"
	"fmt"

	"github.com/tidwall/gjson"
)

// encodeList encodes a TranslateRequest list: raw JSON is checked and kept,
// any other value encoded once. Each element must be a JSON object.
func encodeList(items []any, what string) ([]json.RawMessage, error) {
	out, err := encodeHistory(items)
	if err != nil {
		return nil, fmt.Errorf("core: translate: %s: %w", what, err)
	}
	return out, nil
}

func toAnyList(maps []map[string]any) []any {
	out := make([]any, len(maps))
	for i, m := range maps {
		out[i] = m
	}
	return out
}

// hasSystemMessage reports whether OpenAI messages carry a system (or
// developer) message of their own.
func hasSystemMessage(msgs []json.RawMessage) bool {
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

// anthropicToolChoice maps OpenAI's tool_choice to Anthropic's: "required"
// (or "any") → {type:any}, "none" → {type:none}, a named function →
// {type:tool,name}. "auto", nil and anything else give nil: Anthropic's
// default. The result is JSON text, ready to send.
func anthropicToolChoice(choice any) json.RawMessage {
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
			return append(appendJSONString([]byte(`{"type":"tool","name":`), name), '}')
		}
	}
	return nil
}
