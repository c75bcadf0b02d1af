package jsonx

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// nested returns JSON nested depth levels deep: objects and arrays
// alternating, with a string holding brackets at the bottom.
func nested(depth int) string {
	var b strings.Builder
	for i := 0; i < depth; i++ {
		if i%2 == 0 {
			b.WriteString(`{"k":`)
		} else {
			b.WriteString(`[`)
		}
	}
	b.WriteString(`"[{\"]}"`)
	for i := depth - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteString(`}`)
		} else {
			b.WriteString(`]`)
		}
	}
	return b.String()
}

// valueDepth is the reference: the nesting of a decoded value.
func valueDepth(v any) int {
	deepest := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			deepest = max(deepest, valueDepth(e))
		}
		return deepest + 1
	case []any:
		for _, e := range x {
			deepest = max(deepest, valueDepth(e))
		}
		return deepest + 1
	}
	return 0
}

func TestCheckDepth(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		fail bool
	}{
		{`{}`, 1, false},
		{`{}`, 0, true},
		{`"[[[[[[["`, 1, false},
		{`"\"[[[[["`, 0, false},
		{`["\\"]`, 1, false},
		{`["\\",[[]]]`, 2, true},
		{`[[]][[]]`, 2, false}, // siblings do not add up
		{`]]]]]][[`, 2, false}, // stray closers never go below zero
		{`[[["unterminated`, 3, false},
		{nested(1000), MaxDepth, false},
		{nested(1001), MaxDepth, true},
		{nested(100_000), MaxDepth, true},
	}
	for _, c := range cases {
		err := CheckDepth([]byte(c.in), c.max)
		serr := CheckDepthString(c.in, c.max)
		if (err != nil) != c.fail || (serr != nil) != c.fail {
			t.Errorf("CheckDepth(%.40q, %d) = %v / %v, want failure %v", c.in, c.max, err, serr, c.fail)
		}
		if err != nil && !errors.Is(err, ErrTooDeep) {
			t.Errorf("error %v does not match ErrTooDeep", err)
		}
	}
}

func TestDeepJSONIsRefusedBeforeParsing(t *testing.T) {
	for _, depth := range []int{MaxDepth + 1, 20_000, 100_000} {
		deep := []byte(nested(depth))
		if Valid(deep) || ValidString(string(deep)) {
			t.Fatalf("depth %d: Valid", depth)
		}
		if _, err := Decode(deep); !errors.Is(err, ErrTooDeep) {
			t.Fatalf("depth %d: Decode error %v, want ErrTooDeep", depth, err)
		}
		if _, err := DecodeObject(deep); !errors.Is(err, ErrTooDeep) {
			t.Fatalf("depth %d: DecodeObject error %v", depth, err)
		}
		if err := Check(deep); !errors.Is(err, ErrTooDeep) {
			t.Fatalf("depth %d: Check error %v", depth, err)
		}
		if _, err := Marshal(json.RawMessage(deep)); err == nil && depth > MaxDepth+WrapSlack {
			t.Fatalf("depth %d: Marshal copied a raw message nested that deep", depth)
		}
	}
	ok := []byte(nested(MaxDepth))
	if !Valid(ok) || Check(ok) != nil {
		t.Fatal("JSON at exactly MaxDepth must pass")
	}
	v, err := Decode(ok)
	if err != nil || valueDepth(v) != MaxDepth {
		t.Fatalf("Decode at MaxDepth: depth %d, %v", valueDepth(v), err)
	}
}

// FuzzCheckDepth compares the iterative check with the depth of the value
// encoding/json decodes, and the byte and string forms with each other.
func FuzzCheckDepth(f *testing.F) {
	for _, s := range []string{`{}`, `[[[]]]`, `{"a":"[[["}`, `["\\\"[",[{}]]`, `"\u005b"`, `[[`, `]]][`, nested(7), "\xff[\"\\"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = max(0, limit%64)
		b := []byte(s)
		err := CheckDepth(b, limit)
		if (err == nil) != (CheckDepthString(s, limit) == nil) {
			t.Fatalf("byte and string forms disagree on %q", s)
		}
		if err == nil && CheckDepth(b, limit+1) != nil {
			t.Fatalf("passes at %d but not at %d: %q", limit, limit+1, s)
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			return
		}
		if want := valueDepth(v) > limit; (err != nil) != want {
			t.Fatalf("CheckDepth(%q, %d) = %v; the value nests %d deep", s, limit, err, valueDepth(v))
		}
	})
}
