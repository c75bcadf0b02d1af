//go:build js && wasm && !toolnexus_tools

package jsbridge

import "syscall/js"

// addAgentsAPI adds nothing: the default browser build does not link
// core/agents (it would add about 69 kB gzip). toolnexus.mjs reports
// createAgent and createRuntime as needing toolnexus-tools.wasm.
func addAgentsAPI(js.Value) {}
