package core

import (
	"errors"
	"sort"
	"strings"
)

// portBuiltinNames are the Go port's built-in tool names, bash included
// (core has no shell), in sorted order, each between spaces: a relay tool
// may not take one of them. A string, not a map: a map literal costs the
// wasm build more than this search.
const portBuiltinNames = " apply_patch bash edit glob grep question read todowrite webfetch write "

// checkRelayNames refuses relay tools named like a built-in, whether or not
// built-ins are on, as the Go port does: the host runs a relay tool, so a
// built-in of the same name (now or added later) must never stand in for it.
// The names are listed in sorted order.
func checkRelayNames(tools []Tool) error {
	var bad []string
	for _, t := range tools {
		// strings.Contains over the names found so far, joined, rather than
		// slices.Contains: see retryable.
		if t.Source == SourceRelay && t.Name != "" && strings.Contains(portBuiltinNames, " "+t.Name+" ") && !strings.Contains(" "+strings.Join(bad, " ")+" ", " "+t.Name+" ") {
			bad = append(bad, t.Name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return errors.New("relay tool name collides with a built-in tool: [" + strings.Join(bad, " ") +
		"] — rename the relay tool (checked even with built-ins off, so no built-in can ever take the place of a tool the host runs)")
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
