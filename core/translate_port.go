package core

import (
	"encoding/json"
	"fmt"
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
