package agents

// This file holds what depends on the shape of core's hook and in-process
// client API (core.Hooks, CreateGenerateClient): the rest of the package
// does not touch them.

import (
	"context"

	"github.com/toolnexus/wasm/core"
)

// Guardrail is a policy check on one tool call ("may it?", never "is it
// right?"), given the call as the BeforeTool hook sees it (as in the Go
// port). It returns "" or "allow" to permit, or the reason to deny.
type Guardrail func(ev core.BeforeToolEvent) string

// generateClient is core's client around an in-process model.
func generateClient(g core.GenerateFunc, o core.ClientOptions) *core.Client {
	return core.CreateGenerateClient(g, o)
}

// setHooks installs h's hooks on o: the budget check before the agent's
// own BeforeLLM, the guardrails before its BeforeTool.
func (rt *Runtime) setHooks(o *core.ClientOptions, h *Handle, def Def) {
	hk := guarded(def)
	if rt.opts.BudgetAtTurnStart {
		o.Hooks = hk
		return
	}
	next := hk.BeforeLLM
	hk.BeforeLLM = func(ctx context.Context, call *core.LLMCall) (*core.LLMResponse, error) {
		rt.mu.Lock()
		limit := rt.budgetRefusalLocked(h)
		rt.mu.Unlock()
		if limit != "" {
			return nil, &budgetStop{limit: limit}
		}
		if next != nil {
			return next(ctx, call)
		}
		return nil, nil
	}
	o.Hooks = hk
}

// guarded is a copy of def's hooks with its guardrails (first denial
// wins) run before its BeforeTool; a denial stops the call and the hook.
func guarded(def Def) *core.Hooks {
	hk := core.Hooks{}
	if def.Hooks != nil {
		hk = *def.Hooks
	}
	rails := def.Guardrails
	if len(rails) == 0 {
		return &hk
	}
	next := hk.BeforeTool
	hk.BeforeTool = func(ctx context.Context, ev core.BeforeToolEvent) (*core.ToolOverride, error) {
		for _, g := range rails {
			if v := g(ev); v != "" && v != "allow" {
				return &core.ToolOverride{Result: &core.ToolResult{Output: "denied: " + v, IsError: true}}, nil
			}
		}
		if next != nil {
			return next(ctx, ev)
		}
		return nil, nil
	}
	return &hk
}
