//go:build js && wasm

// Command browser-tools is the browser's wasm with the MCP and A2A clients,
// the built-in tools, skills and agent teams linked (web/toolnexus-tools.wasm): the same bridge as
// wasm/browser, plus the packages its imports register with core and the
// bridge's glue for them (jsbridge.EnableTools, EnableA2A).
package main

import (
	"syscall/js"

	_ "github.com/toolnexus/wasm/core/a2a" // createToolkit's a2aAgents over the host's fetch
	_ "github.com/toolnexus/wasm/core/builtins"
	_ "github.com/toolnexus/wasm/core/mcp" // Options.MCP over the host's fetch
	_ "github.com/toolnexus/wasm/core/skills"
	"github.com/toolnexus/wasm/jsbridge"
)

func main() {
	boot := js.Global().Get("__toolnexusBoot")
	if boot.Type() != js.TypeFunction {
		println("toolnexus: load this wasm through toolnexus.mjs (globalThis.__toolnexusBoot is missing)")
		return
	}
	jsbridge.EnableTools()
	jsbridge.EnableA2A()
	jsbridge.EnableAgents()
	boot.Invoke(jsbridge.NewAPI())
	select {} // serve calls from JS for the life of the page
}
