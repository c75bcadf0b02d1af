package core

import "github.com/toolnexus/wasm/internal/jsonx"

// stringify renders a value as tool-output text: strings as they are, nil as
// "", anything else as JSON.
func stringify(v any) string {
	switch s := v.(type) {
	case nil:
		return ""
	case string:
		return s
	}
	return mustJSON(v)
}

// mustJSON encodes v without HTML escaping; values that cannot be encoded
// (channels, funcs) become "null" rather than a panic.
func mustJSON(v any) string {
	b, err := marshalJSON(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// marshalJSON encodes v without escaping <, > and &: the bytes go to a
// model, not into HTML. Plain values take internal/jsonx's fast path.
func marshalJSON(v any) ([]byte, error) { return jsonx.Marshal(v) }

// appendJSONString appends s as a JSON string literal.
func appendJSONString(dst []byte, s string) []byte { return jsonx.AppendString(dst, s) }

// decodeJSON parses JSON text into plain Go values (map[string]any, []any,
// float64, string, bool, nil) with gjson: the shapes encoding/json gives an
// `any`, without reflection and without linking encoding/json (see
// internal/jsonx).
func decodeJSON(data []byte) (any, error) { return jsonx.Decode(data) }

// decodeObject is decodeJSON for text that must hold a JSON object.
func decodeObject(data []byte) (map[string]any, error) { return jsonx.DecodeObject(data) }
