// Package textx holds the small text helpers core, its packages and the
// Worker share.
package textx

import "unicode/utf8"

// Truncate cuts s to at most n bytes and marks the cut with "…". It never
// cuts inside a UTF-8 sequence, so quoting a provider's or a tool's text in
// an error keeps it valid UTF-8.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 0 {
		n = 0
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
