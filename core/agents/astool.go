package agents

import (
	"sync"

	"github.com/toolnexus/wasm/core"
)

// AsTool turns the agent into a core.Tool for any toolkit: the call runs
// the agent on its own runtime and returns only its final text, with
// metadata {agent, status, turns, totalTokens}. When the agent halts, the
// tool suspends with the agent's Request (a suspending agent is a
// suspending tool); the caller's loop answers it inline (WaitFor) or halts,
// and the call's re-run with the Answer resumes the same runtime.
func (a *Agent) AsTool(opts Options) core.Tool {
	var mu sync.Mutex
	halted := map[string]*Runtime{} // by call id: runtimes waiting on an Answer
	return core.Tool{
		Name:        a.Name,
		Description: a.Spec.Does,
		InputSchema: core.JSONSchema{
			"type":       "object",
			"properties": map[string]any{"prompt": map[string]any{"type": "string"}},
			"required":   []any{"prompt"},
		},
		Source: core.SourceCustom,
		Execute: func(args map[string]any, tc *core.ToolContext) (core.ToolResult, error) {
			var r TaskResult
			var rt *Runtime
			mu.Lock()
			if tc.Answer != nil {
				rt = halted[tc.CallID]
				delete(halted, tc.CallID)
			}
			mu.Unlock()
			if rt != nil {
				var err error
				if r, err = rt.Resume(*tc.Answer); err != nil {
					rt.Close(rt.Root, nil)
					return core.ToolResult{Output: err.Error(), IsError: true}, nil
				}
			} else {
				prompt, _ := args["prompt"].(string)
				r, rt = a.Run(opts, prompt)
			}
			if r.Status == TaskStatusPending && r.Pending != nil {
				mu.Lock()
				halted[tc.CallID] = rt
				mu.Unlock()
				return core.Pending(*r.Pending), nil
			}
			rt.Close(rt.Root, nil)
			return core.ToolResult{Output: r.Text, IsError: r.IsError, Metadata: map[string]any{
				"agent": a.Name, "status": r.Status, "turns": r.Turns, "totalTokens": r.TotalTokens,
			}}, nil
		},
	}
}
