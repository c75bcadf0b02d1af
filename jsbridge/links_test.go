//go:build js && wasm

package jsbridge

// The bridge's tests link what the browser's tools build
// (wasm/browser-tools) links.
import (
	_ "github.com/toolnexus/wasm/core/builtins"
	_ "github.com/toolnexus/wasm/core/mcp"
	_ "github.com/toolnexus/wasm/core/skills"
)

func init() {
	EnableTools()
	EnableAgents()
}
