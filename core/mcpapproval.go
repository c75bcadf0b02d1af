package core

import (
	"fmt"

	"github.com/tidwall/gjson"
)

// MCPApproval is a server's approval policy: which of its tools suspend for
// a person's approval before they run (Tool.NeedsApproval). Set it with the
// server's "approval" key:
//
//	(absent)        ⇒ MCPApproveUnlessReadOnly: ask unless the tool says readOnlyHint: true
//	"always"        ⇒ every tool of the server asks
//	"never"         ⇒ no tool of the server asks
//	"destructive"   ⇒ ask unless readOnlyHint: true or destructiveHint: false
//	["a", "b"]      ⇒ exactly the tools named ask (the server's names, or the
//	                  toolkit's <server>_<tool> names)
//
// Whatever the mode, destructiveHint: true asks except under "never" and a
// list. Annotations are the server's own claims (hints, in the protocol's
// words): for a server you do not trust, use "always" or a list.
type MCPApproval struct {
	// Mode is one of the MCPApprove… constants; "" means the default.
	Mode string
	// Tools are the server's tool names that need approval, with
	// Mode MCPApproveListed.
	Tools []string
}

// The values of MCPApproval.Mode.
const (
	MCPApproveUnlessReadOnly = ""            // the default
	MCPApproveAlways         = "always"      // every tool
	MCPApproveNever          = "never"       // no tool
	MCPApproveDestructive    = "destructive" // tools that may destroy
	MCPApproveListed         = "tools"       // the tools in MCPApproval.Tools
)

// parseMCPApproval reads a server's "approval" value.
func parseMCPApproval(server string, v gjson.Result) (MCPApproval, error) {
	bad := fmt.Errorf(`mcp config: server %q: approval must be "always", "never", "destructive" or a list of tool names, got %s`, server, truncate(v.Raw, 60))
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return MCPApproval{}, nil
	case v.Type == gjson.String:
		switch v.Str {
		case MCPApproveAlways, MCPApproveNever, MCPApproveDestructive:
			return MCPApproval{Mode: v.Str}, nil
		}
		return MCPApproval{}, bad
	case v.IsArray():
		p := MCPApproval{Mode: MCPApproveListed, Tools: []string{}}
		for _, name := range v.Array() {
			if name.Type != gjson.String || name.Str == "" {
				return MCPApproval{}, fmt.Errorf("mcp config: server %q: approval lists tool names: want non-empty strings, got %s", server, truncate(name.Raw, 60))
			}
			p.Tools = append(p.Tools, name.Str)
		}
		return p, nil
	}
	return MCPApproval{}, bad
}

// needsApproval decides one tool of tools/list: remote is its name on the
// server, exposed its name in the toolkit (<server>_<tool>), annotations its
// "annotations" object (absent for many servers). A list may use either
// name, so that writing the toolkit's name does not silently ask for nothing.
// An unannotated tool is taken to be able to change things, as the
// protocol's own defaults say (readOnlyHint false, destructiveHint true).
func (p MCPApproval) needsApproval(remote, exposed string, annotations gjson.Result) bool {
	readOnly := annotations.Get("readOnlyHint").Type == gjson.True
	destructive := annotations.Get("destructiveHint")
	switch p.Mode {
	case MCPApproveNever:
		return false
	case MCPApproveAlways:
		return true
	case MCPApproveListed:
		for _, name := range p.Tools {
			if name == remote || name == exposed {
				return true
			}
		}
		return false
	case MCPApproveDestructive:
		return destructive.Type == gjson.True || (!readOnly && destructive.Type != gjson.False)
	}
	return !readOnly || destructive.Type == gjson.True
}

// taskOnly reports whether a tools/list entry can only be called as a task
// (execution.taskSupport "required"). Such a tool is not offered to the
// model: this client does not create tasks (tools/call with "task"), so
// every call would fail. McpStatus lists it under Hidden.
func taskOnly(t gjson.Result) bool {
	return t.Get("execution.taskSupport").String() == "required"
}
