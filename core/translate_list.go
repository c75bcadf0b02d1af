package core

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/wasm/core/wire"
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

// translateExtras applies TranslateRequest's Toolkit (declared before
// tools) and ToolChoice (returned as request parameters, `,"tool_choice":…`,
// in Anthropic's shape for an Anthropic client).
func translateExtras(req TranslateRequest, tools []json.RawMessage, anthropic bool) ([]json.RawMessage, []byte, error) {
	if req.Toolkit != nil {
		declared, err := encodeList(toAnyList(wireToolMaps(req.Toolkit.Tools(), StyleOpenAI)), "toolkit")
		if err != nil {
			return nil, nil, err
		}
		tools = append(declared, tools...)
	}
	choice := req.ToolChoice
	if anthropic {
		if tc := wire.AnthropicToolChoice(choice); tc != nil {
			choice = tc
		} else {
			choice = nil
		}
	}
	if choice == nil {
		return tools, nil, nil
	}
	params, err := encodeParams(map[string]any{"tool_choice": choice})
	if err != nil {
		return nil, nil, fmt.Errorf("core: translate: tool_choice: %w", err)
	}
	return tools, params, nil
}
