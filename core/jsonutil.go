package core

import (
	"github.com/toolnexus/wasm/internal/jsonx"
)

// stringify renders a value as tool-output text (jsonx.Text): strings as
// they are, nil as "", anything else as JSON.
func stringify(v any) string { return jsonx.Text(v) }

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

// MaxJSONDepth is how deeply JSON that reaches core may nest (objects and
// arrays together): model replies and their stream events, tool-call
// arguments, MCP messages, histories, answers and configurations. Deeper
// JSON is refused with an error matching ErrJSONTooDeep before anything
// recursive parses it: under js/wasm a recursive parse of ~9,000 levels
// overflows the JS engine's stack and ends the host (see internal/jsonx).
const MaxJSONDepth = jsonx.MaxDepth

// ErrJSONTooDeep is what errors.Is finds when JSON from the host (a
// history, an Answer or Request, an MCP configuration) nests deeper than
// MaxJSONDepth. Model replies, stream events and translate requests that
// deep fail with an error whose text says so ("… refused: JSON nested more
// than 1000 levels deep"); tool-call arguments that deep are an error
// result the model reads.
var ErrJSONTooDeep = jsonx.ErrTooDeep

// checkJSON is the check of JSON text at an entry: its depth first (one
// iterative pass), then its syntax. what names the text in the error.
func checkJSON(b []byte, what string) error { return jsonx.CheckText(b, "core: ", what) }

// validJSON is the depth check, then gjson's (jsonx.Check: the bridge
// links it too, and one copy is less wasm than two).
func validJSON(b []byte) bool { return jsonx.Check(b) == nil }
