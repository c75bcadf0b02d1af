//go:build js && wasm

package jsonx

import "reflect"

// appendMethod refuses a nested value whose type has a MarshalJSON or Error
// method: calling it needs reflect.Value.Interface, which links reflect's
// method-value code — 61 kB raw and 17.5 kB gzip -9 of the browser build
// (measured at 3a060dd). Such a value encodes when it is passed as a value
// of its own (Append checks the interface it is given), and json.RawMessage
// and Checked encode wherever they are.
func appendMethod(dst []byte, rv reflect.Value) ([]byte, error) {
	return nil, errMethod(rv.Type())
}
