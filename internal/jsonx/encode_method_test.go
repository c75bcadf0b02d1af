package jsonx

import (
	"errors"
	"strings"
	"testing"
)

// upper encodes as its text upper-cased: a MarshalJSON of its own.
type upper string

func (u upper) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strings.ToUpper(string(u)) + `"`), nil
}

// ptrMarshaler has MarshalJSON on its pointer only.
type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"p"`), nil }

func TestMarshalerOnItsOwn(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{upper("x"), `"X"`},
		// []any and map[string]any hand each element to Append as an interface.
		{[]any{upper("a"), map[string]any{"e": errors.New("e")}}, `["A",{"e":"e"}]`},
		{&ptrMarshaler{}, `"p"`},
		{errors.New("boom"), `"boom"`},
		{(*ptrMarshaler)(nil), `"p"`},
		{Checked(`{"a":1}`), `{"a":1}`},
		{struct {
			C Checked `json:"c"`
			P *upper  `json:"p"`
		}{C: Checked(`[1]`)}, `{"c":[1],"p":null}`},
	} {
		got, err := Marshal(tc.v)
		if err != nil || string(got) != tc.want {
			t.Errorf("%#v: got %s, %v; want %s", tc.v, got, err, tc.want)
		}
	}
	if _, err := Marshal([]Checked{nil}); err == nil {
		t.Error("a nil Checked must fail as invalid JSON")
	}
}
