//go:build js && wasm

package builtins

import (
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsregexp"
)

// defaultMatcher under js/wasm compiles grep patterns with the host's
// JavaScript RegExp: Go's regexp would add about 125 kB of gzip'd wasm.
// The grep tool's description tells the model which dialect it gets.
var defaultMatcher tool.Matcher = jsregexp.Matcher

// grepDialect names the pattern syntax of defaultMatcher.
const grepDialect = "JavaScript RegExp syntax"
