//go:build js

package toolnexus

import "errors"

// shellTool is the bash built-in under js/wasm: the sandbox (a browser tab,
// a Worker, Node's wasm host) has no shell, so every call is an error
// result saying so.
func shellTool() Tool {
	return hostTool("bash", shellDescription, shellSchema(),
		func(map[string]any, *ToolContext) (ToolResult, error) {
			return ToolResult{}, errors.New("there is no shell in this sandbox (js/wasm): commands cannot run here")
		})
}
