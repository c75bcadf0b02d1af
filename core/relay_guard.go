package core

import (
	"fmt"
	"sort"
)

// portBuiltinNames are the Go port's built-in tool names, bash included
// (core has no shell). A relay tool may not take one of them.
var portBuiltinNames = map[string]bool{
	"bash": true, "read": true, "write": true, "edit": true, "grep": true, "glob": true,
	"webfetch": true, "question": true, "apply_patch": true, "todowrite": true,
}

// checkRelayNames refuses relay tools named like a built-in, whether or not
// built-ins are on, as the Go port does: the host runs a relay tool, so a
// built-in of the same name (now or added later) must never stand in for it.
func checkRelayNames(tools []Tool) error {
	var bad []string
	for _, t := range tools {
		if t.Source == SourceRelay && portBuiltinNames[t.Name] {
			bad = append(bad, t.Name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("relay tool name collides with a built-in tool: %v — rename the relay tool (checked even with built-ins off, so no built-in can ever take the place of a tool the host runs)", bad)
}

// noShellNote explains a call to "bash", the one Go port built-in core does
// not have: there is no shell where core runs (a browser tab, a Worker, a
// wasm sandbox). Empty for any other name.
func noShellNote(name string) string {
	if name != "bash" {
		return ""
	}
	return "; core has no bash built-in: it runs in a sandbox (browser, Worker, WebAssembly) with no shell to run commands in — a host that has one can register its own tool named bash"
}
