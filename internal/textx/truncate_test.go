package textx

import (
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"a longer text", 8, "a longer…"},
		{"héllo", 2, "h…"}, // é is two bytes: the cut steps back to its start
		{"日本語", 4, "日…"},
		{"abc", 0, "…"},
		{"abc", -1, "…"},
	} {
		got := Truncate(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
