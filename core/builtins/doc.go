// Package builtins is the built-in tool set of toolnexus: question,
// webfetch, todowrite, and the file tools read, write, edit, glob, grep and
// apply_patch over a virtual file system (package core/vfs).
//
// A program links the built-ins by importing this package, usually for its
// side effect:
//
//	import _ "github.com/toolnexus/wasm/core/builtins"
//
// Its init registers Tools with core/tool's registry, and core's
// Options.Builtins then assembles them into a toolkit. Without the import,
// asking core for built-ins is an error that names it. The browser's
// default wasm leaves the package out to stay small; its tools build
// (wasm/browser-tools) and the Worker import it.
//
// grep's patterns are regular expressions: RE2 syntax in native builds,
// JavaScript RegExp under js/wasm (through the host's engine, so that the
// wasm need not link Go's regexp). The tool's description tells the model
// which one it gets.
package builtins
