package agents

import (
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// TestTaskToolDelegatesIntoTheTree: the exported task tool lists the team
// sorted with what each agent does, and a call runs the agent as a child
// of the given parent.
func TestTaskToolDelegatesIntoTheTree(t *testing.T) {
	team := newSupportTeam(t)
	opts := team.options()
	opts.Registry = team.support.Registry()
	opts.WaitFor = func(req core.Request) (core.Answer, error) { return core.Answer{ID: req.ID, Ok: true}, nil }
	rt := NewRuntime(opts)
	defer rt.Close(rt.Root, nil)
	h, err := rt.Spawn(rt.Root, "support", nil)
	if err != nil {
		t.Fatal(err)
	}
	tool := rt.TaskTool(h, []string{"support", "billing"})
	if tool.Name != "task" || !strings.HasSuffix(tool.Description, "billing: handles refunds; support: answers customers") {
		t.Fatalf("tool %q: %q", tool.Name, tool.Description)
	}
	res, err := tool.Execute(map[string]any{"agent": "billing", "prompt": "refund order 42"}, &core.ToolContext{})
	if err != nil || res.IsError || res.Output != "billing: refunded order 42" {
		t.Fatalf("task call = %+v, %v", res, err)
	}
}
