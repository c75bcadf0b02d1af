//go:build !(js && wasm)

package jsonx

import "reflect"

// appendMethod encodes a nested value whose type has a MarshalJSON or Error
// method by calling it, as encoding/json does. Outside the wasm builds
// reflect.Value.Interface costs nothing that matters; encode_method_js.go
// says why the wasm builds do without it.
func appendMethod(dst []byte, rv reflect.Value) ([]byte, error) {
	if !rv.CanInterface() {
		return nil, errMethod(rv.Type())
	}
	return appendOther(dst, rv.Interface())
}
