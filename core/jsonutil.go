package core

import (
	"github.com/toolnexus/wasm/internal/jsonx"
)

// mustJSON encodes v without HTML escaping (internal/jsonx: the bytes go to
// a model, not into HTML); values that cannot be encoded (channels, funcs)
// become "null" rather than a panic.
func mustJSON(v any) string {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

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
