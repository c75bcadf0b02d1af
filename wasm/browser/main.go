//go:build js && wasm

// Command browser is the wasm the browser (and Node) loads through
// web/toolnexus.mjs: it hands the bridge's API to the loader and stays alive.
// It leaves out what the tools build (wasm/browser-tools) adds: the MCP
// client (core/mcp: 148 kB raw, 37 kB gzip), built-ins, skills and agents;
// asking for them here is an error that names toolnexus-tools.wasm.
package main

import (
	"syscall/js"

	"github.com/toolnexus/wasm/jsbridge"
)

func main() {
	boot := js.Global().Get("__toolnexusBoot")
	if boot.Type() != js.TypeFunction {
		println("toolnexus: load this wasm through toolnexus.mjs (globalThis.__toolnexusBoot is missing)")
		return
	}
	boot.Invoke(jsbridge.NewAPI())
	select {} // serve calls from JS for the life of the page
}
