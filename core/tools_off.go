//go:build js && wasm && !toolnexus_tools && !toolnexus_full

package core

// ToolsLinked is false in the default js/wasm build: the skills source and
// the built-in tools cost about 116 KB of gzip'd wasm, so the browser build
// links them only with -tags toolnexus_tools (or toolnexus_full, which also
// links the go.yaml.in/yaml/v3 library and Go's regexp). Code guarded by
// this constant is dropped by the compiler.
const ToolsLinked = false
