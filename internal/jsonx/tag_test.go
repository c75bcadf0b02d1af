package jsonx

import (
	"reflect"
	"testing"
)

// jsonTag reads what reflect.StructTag.Get("json") reads for every tag a
// struct can sensibly carry, and the same nothing for broken ones.
func TestJSONTagMatchesReflect(t *testing.T) {
	for _, tag := range []reflect.StructTag{
		``, `json:"a"`, `json:"a,omitempty"`, `json:"-"`, `json:"-,"`, `json:",omitempty"`,
		`xml:"x" json:"b"`, `  json:"c"  xml:"y"`, `json:"" other:"z"`, `other:"json:\"no\""`,
		`json:"q\"uote"`, `json:"back\\slash"`, `jsonx:"no" json:"yes"`, `json`, `json:`, `json:"open`,
		`json: "spaced"`, `:"nokey" json:"after"`, `a b:"c" json:"d"`, `json:"first" json:"second"`,
		"json:\"tab\there\"", `ver:"1" json:"name,string"`,
	} {
		if got, want := jsonTag(tag), tag.Get("json"); got != want {
			t.Errorf("%q: got %q, want %q", tag, got, want)
		}
	}
}

// Escapes other than \" and \\ are not read (reflect would unquote them);
// no json name or option needs one.
func TestJSONTagOtherEscapes(t *testing.T) {
	if got := jsonTag(`json:"a\nb"`); got != "" {
		t.Errorf("got %q, want the tag read as empty", got)
	}
}
