package mcp

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/approval"
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

// approvalRules is a server's approval setting as rules of core/approval's
// shape, read over each tool's listing ({"name": its name on the server,
// "exposed": its name in the toolkit, "annotations": its annotations})
// rather than a call's arguments: one engine for every approval rule, and
// the rule that matched says why a tool asks (Tool.ApprovalRule, which the
// record names). An unannotated tool is taken to be able to change things,
// as the protocol's own defaults say (readOnlyHint false, destructiveHint
// true).
func approvalRules(server string, p tool.MCPApproval) []approval.Rule {
	name := func(why string) string { return "mcp server " + server + ": " + why }
	hint := func(h string, v bool) []approval.Cond {
		return []approval.Cond{{Path: "annotations." + h, Op: "==", Value: v}}
	}
	switch p.Mode {
	case tool.MCPApproveNever:
		return []approval.Rule{{Name: name(`approval "never"`), Decision: approval.Allow}}
	case tool.MCPApproveAlways:
		return []approval.Rule{{Name: name(`approval "always"`), Decision: approval.Ask}}
	case tool.MCPApproveListed:
		list := make([]any, len(p.Tools))
		for i, t := range p.Tools {
			list[i] = t
		}
		return []approval.Rule{
			{Name: name("listed in approval"), When: []approval.Cond{{Path: "name", Op: "oneOf", Value: list}}, Decision: approval.Ask},
			{Name: name("listed in approval"), When: []approval.Cond{{Path: "exposed", Op: "oneOf", Value: list}}, Decision: approval.Ask},
			{Name: name("not listed in approval"), Decision: approval.Allow},
		}
	case tool.MCPApproveDestructive:
		return []approval.Rule{
			{Name: name("destructiveHint"), When: hint("destructiveHint", true), Decision: approval.Ask},
			{Name: name("readOnlyHint"), When: hint("readOnlyHint", true), Decision: approval.Allow},
			{Name: name("destructiveHint false"), When: hint("destructiveHint", false), Decision: approval.Allow},
			{Name: name("may destroy (not annotated otherwise)"), Decision: approval.Ask},
		}
	}
	return []approval.Rule{
		{Name: name("destructiveHint"), When: hint("destructiveHint", true), Decision: approval.Ask},
		{Name: name("readOnlyHint"), When: hint("readOnlyHint", true), Decision: approval.Allow},
		{Name: name("not annotated readOnlyHint"), Decision: approval.Ask},
	}
}

// markApproval decides whether adapted, listed as t, asks for approval,
// by the server's rules.
func markApproval(rules []approval.Rule, server string, t gjson.Result, adapted *tool.Tool) {
	listing := map[string]any{"name": t.Get("name").String(), "exposed": adapted.Name}
	if a, ok := t.Get("annotations").Value().(map[string]any); ok {
		listing["annotations"] = a
	}
	v := approval.Decide(rules, approval.Call{Tool: adapted.Name, Source: string(tool.SourceMCP), Server: server, Args: listing})
	if adapted.NeedsApproval = v.Decision == approval.Ask; adapted.NeedsApproval {
		adapted.ApprovalRule = v.Rule
	}
}

// taskOnly reports whether a tools/list entry can only be called as a task
// (execution.taskSupport "required"). Such a tool is not offered to the
// model: this client does not create tasks (tools/call with "task"), so
// every call would fail. McpStatus lists it under Hidden.
func taskOnly(t gjson.Result) bool {
	return t.Get("execution.taskSupport").String() == "required"
}
