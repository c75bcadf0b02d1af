//go:build !js || !wasm

package builtins

import "regexp"

// defaultMatcher compiles grep patterns with Go's regexp (RE2 syntax).
// Under js/wasm the host's RegExp stands in for it (see match_js.go).
func defaultMatcher(pattern string) (func(string) bool, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

// grepDialect names the pattern syntax of defaultMatcher.
const grepDialect = "RE2 syntax"
