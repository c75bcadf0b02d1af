package agents

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sort"
	"strings"

	"github.com/toolnexus/wasm/core"
)

// LimitError is a spawn refused by a budget or cap; Limit names it.
type LimitError struct {
	Limit string
	Msg   string
}

func (e *LimitError) Error() string { return "agents: " + e.Msg }

// TaskTool is the "task" tool the runtime gives an agent that has a team:
// a call hands work to one of team's agents, as a child of parent, and
// answers with its result. A host can put it in a toolkit of its own (a
// Loop, say) to delegate into the runtime's tree.
func (rt *Runtime) TaskTool(parent *Handle, team []string) core.Tool {
	return rt.taskTool(parent, team)
}

// taskToolName is the name of the tool by which an agent hands work to its
// team.
const taskToolName = "task"

// taskTool is the parent's "task" tool: spawn → wake → wait → close fused
// into one call whose targets are the parent's team only. A re-run of the
// same call (the resume of a halted parent) re-attaches to the existing
// child instead of spawning another.
func (rt *Runtime) taskTool(parent *Handle, team []string) core.Tool {
	sorted := append([]string(nil), team...)
	sort.Strings(sorted)
	describes := make([]string, 0, len(sorted))
	for _, name := range sorted {
		describes = append(describes, name+": "+rt.opts.Registry[name].Does)
	}
	return core.Tool{
		Name:        taskToolName,
		Description: "Hand a piece of work to one of your team's agents; it works on it alone and answers with its result. Team — " + strings.Join(describes, "; "),
		InputSchema: core.JSONSchema{
			"type": "object",
			"properties": map[string]any{
				"agent":  map[string]any{"type": "string", "description": "team agent to delegate to", "enum": anyStrings(sorted)},
				"prompt": map[string]any{"type": "string", "description": "the subtask"},
			},
			"required": []any{"agent", "prompt"},
		},
		Source: core.SourceCustom,
		Execute: func(args map[string]any, tc *core.ToolContext) (core.ToolResult, error) {
			name, _ := args["agent"].(string)
			prompt, _ := args["prompt"].(string)
			if sort.SearchStrings(sorted, name) == len(sorted) || sorted[sort.SearchStrings(sorted, name)] != name {
				return core.ToolResult{Output: fmt.Sprintf("agent %q is not in this agent's team (available: %s)", name, strings.Join(sorted, ", ")), IsError: true}, nil
			}
			key := tc.CallID
			if key == "" {
				key = name + ":" + prompt
			}
			if tc.Answer == nil && tc.CallID != "" {
				// The loop announced this call (a resumed one is not): let
				// the announcement reach the observer before the member's
				// events do (streamFlow).
				rt.mu.Lock()
				flow := parent.flow
				rt.mu.Unlock()
				if flow != nil {
					flow.await(tc.Ctx, tc.CallID)
				}
			}
			r := rt.runTask(tc.Ctx, parent, name, prompt, key)
			if r.Status == TaskStatusPending && r.Pending != nil {
				return core.Pending(*r.Pending), nil // a suspending agent is a suspending tool
			}
			out := r.Text
			if r.Status != TaskStatusDone {
				out = "[" + r.Status + "] " + r.Text
			}
			return core.ToolResult{Output: out, IsError: r.IsError, Metadata: map[string]any{
				"agent": name, "status": r.Status, "turns": r.Turns, "totalTokens": r.TotalTokens,
			}}, nil
		},
	}
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// runTask resolves one task call: re-attach to the child spawned for key,
// or spawn, wake and wait for a new one. A settled child is closed; a
// suspended one stays for Resume.
func (rt *Runtime) runTask(ctx context.Context, parent *Handle, name, prompt, key string) TaskResult {
	rt.mu.Lock()
	var child *Handle
	for _, c := range parent.children {
		if c.taskKey == key && c.state != StateClosed && !c.closing {
			child = c
			rt.tracef("%s: task replay → REATTACH to %s (state %s)", parent.ID, c.ID, c.state)
			break
		}
	}
	rt.mu.Unlock()
	if child == nil {
		var err error
		if child, err = rt.Spawn(parent, name, nil); err != nil {
			if le, ok := err.(*LimitError); ok {
				return TaskResult{Text: err.Error(), IsError: true, Status: TaskStatusIncomplete, Limit: le.Limit}
			}
			return TaskResult{Text: err.Error(), IsError: true, Status: TaskStatusError}
		}
		rt.mu.Lock()
		child.taskKey = key
		rt.mu.Unlock()
		rt.Wake(child, prompt)
	}
	r := rt.waitCtx(ctx, child)
	if r.Status != TaskStatusPending {
		rt.Close(child, nil)
		return r
	}
	// The parent's halted turn will hold this id: Resume continues the
	// parent once the child is past it.
	rt.mu.Lock()
	child.boundReq = r.Pending.ID
	rt.mu.Unlock()
	return r
}

// waitCtx is Wait that interrupts h when ctx ends (the parent's turn was
// interrupted or closed), so no child outlives its caller's turn.
func (rt *Runtime) waitCtx(ctx context.Context, h *Handle) TaskResult {
	if ctx == nil {
		return rt.Wait(h, 0)
	}
	settled, ch := rt.resultOrWaiter(h)
	if settled != nil {
		return *settled
	}
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		rt.mu.Lock()
		rt.dropWaiterLocked(h, ch)
		rt.mu.Unlock()
		rt.Interrupt(h)
		return TaskResult{Text: "interrupted", IsError: true, Status: TaskStatusInterrupted}
	}
}
