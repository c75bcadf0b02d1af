//go:build js && wasm && !toolnexus_tools && !toolnexus_full

package core

// BuiltinsLinked is false in js/wasm builds without -tags toolnexus_tools
// or toolnexus_full; see builtins_on.go.
const BuiltinsLinked = false
