//go:build js && wasm

package jsregexp

import "testing"

func TestMatcher(t *testing.T) {
	cases := []struct {
		pattern, line string
		want          bool
	}{
		{"a+b", "xaab", true},
		{"^x", "yx", false},
		{`\d{3}`, "call 555", true},
		{"(?:caf)é", "café", true},
	}
	for _, c := range cases {
		m, err := Matcher(c.pattern)
		if err != nil {
			t.Fatalf("Matcher(%q): %v", c.pattern, err)
		}
		if got := m(c.line); got != c.want {
			t.Errorf("%q on %q = %v, want %v", c.pattern, c.line, got, c.want)
		}
	}
}

func TestMatcherRefusesBadPattern(t *testing.T) {
	if _, err := Matcher("(unclosed"); err == nil {
		t.Fatal("a pattern RegExp refuses compiled")
	}
}
