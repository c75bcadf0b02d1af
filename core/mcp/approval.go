package mcp

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/textx"
)

// parseMCPApproval reads a server's "approval" value.
func parseMCPApproval(server string, v gjson.Result) (tool.MCPApproval, error) {
	bad := fmt.Errorf(`mcp config: server %q: approval must be "always", "never", "destructive" or a list of tool names, got %s`, server, textx.Truncate(v.Raw, 60))
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return tool.MCPApproval{}, nil
	case v.Type == gjson.String:
		switch v.Str {
		case tool.MCPApproveAlways, tool.MCPApproveNever, tool.MCPApproveDestructive:
			return tool.MCPApproval{Mode: v.Str}, nil
		}
		return tool.MCPApproval{}, bad
	case v.IsArray():
		p := tool.MCPApproval{Mode: tool.MCPApproveListed, Tools: []string{}}
		for _, name := range v.Array() {
			if name.Type != gjson.String || name.Str == "" {
				return tool.MCPApproval{}, fmt.Errorf("mcp config: server %q: approval lists tool names: want non-empty strings, got %s", server, textx.Truncate(name.Raw, 60))
			}
			p.Tools = append(p.Tools, name.Str)
		}
		return p, nil
	}
	return tool.MCPApproval{}, bad
}

// needsApproval decides one tool of tools/list: remote is its name on the
// server, exposed its name in the toolkit (<server>_<tool>), annotations its
// "annotations" object (absent for many servers). A list may use either
// name, so that writing the toolkit's name does not silently ask for nothing.
// An unannotated tool is taken to be able to change things, as the
// protocol's own defaults say (readOnlyHint false, destructiveHint true).
func needsApproval(p tool.MCPApproval, remote, exposed string, annotations gjson.Result) bool {
	readOnly := annotations.Get("readOnlyHint").Type == gjson.True
	destructive := annotations.Get("destructiveHint")
	switch p.Mode {
	case tool.MCPApproveNever:
		return false
	case tool.MCPApproveAlways:
		return true
	case tool.MCPApproveListed:
		for _, name := range p.Tools {
			if name == remote || name == exposed {
				return true
			}
		}
		return false
	case tool.MCPApproveDestructive:
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
