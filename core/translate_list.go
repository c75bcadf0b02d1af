package core

import (
	"encoding/json"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

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

// translateExtras applies TranslateRequest's Toolkit (declared before
// tools) and ToolChoice (returned as request parameters, `,"tool_choice":…`,
// in the format's shape).
func translateExtras(f wire.Format, req TranslateRequest, tools []json.RawMessage) ([]json.RawMessage, []byte, error) {
	if req.Toolkit != nil {
		declared, err := wire.ToolDecls(req.Toolkit.Tools(), wire.OpenAI{})
		if err != nil {
			return nil, nil, fmt.Errorf("core: translate: toolkit: %w", err)
		}
		tools = append(declared, tools...)
	}
	choice, err := wire.ToolChoice(f, req.ToolChoice)
	if err != nil || choice == nil {
		return tools, nil, err
	}
	params, err := encodeParams(map[string]any{"tool_choice": choice})
	if err != nil {
		return nil, nil, fmt.Errorf("core: translate: tool_choice: %w", err)
	}
	return tools, params, nil
}
