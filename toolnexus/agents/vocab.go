package agents

import (
	"strings"

	"github.com/toolnexus/wasm/core"
	coreagents "github.com/toolnexus/wasm/core/agents"
)

// The kernel and the port name two things differently; these translate
// the kernel's words into the port's where a result crosses to the caller.

// portPath is req with Data["path"] as the port has it: the suspended
// handle's id split at "/" (["root", "boss.1", "asker.1"]). The kernel
// keeps agent names there and the id in Data["handle"]. req is copied,
// never changed.
func portPath(req *core.Request) *core.Request {
	if req == nil {
		return nil
	}
	id, ok := req.Data["handle"].(string)
	if !ok {
		return req
	}
	out := *req
	out.Data = make(map[string]any, len(req.Data))
	for k, v := range req.Data {
		out.Data[k] = v
	}
	out.Data["path"] = strings.Split(id, "/")
	return &out
}

// portLimits are the port's names of the budget pools in a refusal.
var portLimits = map[string]string{
	coreagents.LimitMaxTokens:    "tokens",
	coreagents.LimitMaxToolCalls: "toolCalls",
	coreagents.LimitMaxWallMs:    "wallMs",
}

// portBudgetText is r's text, with a pool exhaustion named as the port
// names it ("budget exhausted (wallMs); …").
func portBudgetText(r coreagents.TaskResult) string {
	name, ok := portLimits[r.Limit]
	if !ok || r.Status != coreagents.TaskStatusIncomplete {
		return r.Text
	}
	return strings.Replace(r.Text, "("+r.Limit+")", "("+name+")", 1)
}
