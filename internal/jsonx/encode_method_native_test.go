//go:build !(js && wasm)

package jsonx

import (
	"errors"
	"testing"
)

// Outside the wasm builds nested values' methods are called, as
// encoding/json calls them.
func TestNestedMethodsCalled(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{map[string]upper{"k": "v"}, `{"k":"V"}`},
		{struct {
			U upper `json:"u"`
		}{"s"}, `{"u":"S"}`},
		{[]*ptrMarshaler{{}}, `["p"]`},
		{[]error{errors.New("e")}, `["e"]`},
	} {
		got, err := Marshal(tc.v)
		if err != nil || string(got) != tc.want {
			t.Errorf("%#v: got %s, %v; want %s", tc.v, got, err, tc.want)
		}
		if want := stdJSON(tc.v); want != tc.want && tc.want != `["e"]` {
			t.Errorf("%#v: encoding/json writes %s", tc.v, want)
		}
	}
}
