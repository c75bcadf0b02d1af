package agents

// This file holds what depends on the shape of core's hook and in-process
// client API (core.Hooks, CreateGenerateClient): the rest of the package
// does not touch them.

import (
	"context"
	"strconv"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
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

// guarded is a copy of def's hooks (the guardrails are rules: policyFor).
func guarded(def Def) *core.Hooks {
	hk := core.Hooks{}
	if def.Hooks != nil {
		hk = *def.Hooks
	}
	return &hk
}

// policyFor is h's approval policy: its guardrails as rules (first
// denial wins, before any rule of the runtime's and before the hooks),
// then the runtime's rules that apply to h's path (Options.Approvals), on
// the runtime's grants; its decisions reach the runtime's OnDecision with
// h's path. Made once per handle: every turn's toolkit shares it.
func (rt *Runtime) policyFor(h *Handle, def Def) *approval.Policy {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if h.policy != nil {
		return h.policy
	}
	base := rt.opts.Approvals
	if base == nil {
		base = rt.policy
	}
	var rules []approval.Rule
	for i, g := range def.Guardrails {
		rules = append(rules, approval.Rule{Name: "guardrail " + strconv.Itoa(i+1) + " of " + def.Name, Func: func(c approval.Call) (approval.Decision, string) {
			if v := g(core.BeforeToolEvent{Name: c.Tool, Args: c.Args, ID: c.ID, Turn: c.Turn}); v != "" && v != "allow" {
				return approval.Deny, v
			}
			return "", ""
		}})
	}
	rules = append(rules, approval.ForAgent(base.Rules, h.path)...)
	path := append([]string(nil), h.path...)
	h.policy = base.Derive(rules, func(e approval.Entry) {
		if e.Path == nil {
			e.Path = path
		}
		if base.OnDecision != nil {
			base.OnDecision(e)
		}
	})
	return h.policy
}
