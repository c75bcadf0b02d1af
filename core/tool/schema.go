package tool

import "github.com/toolnexus/wasm/internal/jsonx"

// ObjectSchema is {"type":"object", properties, required,
// additionalProperties:false}. The properties are JSON text: a constant
// costs the wasm build far less than the code of a nested map literal.
// properties must be a constant: invalid JSON panics when the tool is
// made, which every test of that tool catches.
func ObjectSchema(properties string, required ...string) JSONSchema {
	props, err := jsonx.DecodeObject([]byte(properties))
	if err != nil {
		panic("tool: a schema's properties: " + err.Error()) // a constant: the tests catch it
	}
	req := make([]any, len(required))
	for i, r := range required {
		req[i] = r
	}
	return JSONSchema{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}
