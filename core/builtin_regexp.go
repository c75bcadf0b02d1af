//go:build !js || !wasm || toolnexus_full

package core

import "regexp"

// defaultMatcher compiles grep patterns with Go's regexp (RE2 syntax). The
// default js/wasm build leaves regexp out (about 125 KB of gzip'd wasm) and
// uses literalMatcher instead; the JS bridge passes JavaScript's RegExp.
func defaultMatcher(pattern string) (func(string) bool, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}
