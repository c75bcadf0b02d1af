//go:build js && wasm

package jsonx

import (
	"errors"
	"strings"
	"testing"
)

// In the wasm builds a nested value with a MarshalJSON or Error method is
// refused with an error that names its type, never encoded field by field.
func TestNestedMethodsRefused(t *testing.T) {
	for _, v := range []any{
		map[string]upper{"k": "v"},
		struct {
			U upper `json:"u"`
		}{"s"},
		[]*ptrMarshaler{{}},
		[]error{errors.New("e")},
	} {
		_, err := Marshal(v)
		if err == nil || !strings.Contains(err.Error(), "MarshalJSON or Error method is not called") {
			t.Errorf("%#v: got %v, want the nested-method error", v, err)
		}
	}
}
