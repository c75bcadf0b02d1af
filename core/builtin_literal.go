//go:build js && wasm && !toolnexus_full

package core

// defaultMatcher of the default js/wasm build: plain text only, so the wasm
// need not link regexp. See builtin_regexp.go.
var defaultMatcher Matcher = literalMatcher
