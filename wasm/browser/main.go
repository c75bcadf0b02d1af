//go:build js && wasm

// Command browser is the wasm the browser (and Node) loads through
// web/toolnexus.mjs: it hands the bridge's API to the loader and stays alive.
package main

import (
	"syscall/js"

	_ "github.com/toolnexus/wasm/core/mcp" // Options.MCP over the host's fetch
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
