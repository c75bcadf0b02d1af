package agents

// This file holds what depends on the shape of core's hook and in-process
// client API, which issue 17 changes (core.Hooks becomes the Go port's,
// the byte-level hooks become RawHooks, CreateInProcessClient becomes
// CreateGenerateClient): the rest of the package does not touch them.

import (
	"context"

	"github.com/toolnexus/wasm/core"
)

// Guardrail is a policy check on one tool call ("may it?", never "is it
// right?"). It returns "" or "allow" to permit, or the reason to deny.
type Guardrail func(call core.ToolCall, args map[string]any) string

// generateClient is core's client around an in-process model.
func generateClient(g core.GenerateFunc, o core.ClientOptions) *core.Client {
	return core.CreateInProcessClient(g, o)
}

// setHooks installs h's hooks on o.
func (rt *Runtime) setHooks(o *core.ClientOptions, h *Handle, def Def) {
	o.Hooks = rt.hooks(h, def)
}

// hooks composes the runtime's checks with the agent's own hooks: the
// budget check before every model call, the guardrails (first denial wins)
// before the agent's BeforeTool.
func (rt *Runtime) hooks(h *Handle, def Def) core.Hooks {
	hk := core.Hooks{}
	if def.Hooks != nil {
		hk = *def.Hooks
	}
	beforeLLM, beforeTool := hk.BeforeLLM, hk.BeforeTool
	hk.BeforeLLM = func(ctx context.Context, turn int, body *[]byte) (*core.LLMResponse, error) {
		rt.mu.Lock()
		limit := rt.budgetRefusalLocked(h)
		rt.mu.Unlock()
		if limit != "" {
			return nil, &budgetStop{limit: limit}
		}
		if beforeLLM != nil {
			return beforeLLM(ctx, turn, body)
		}
		return nil, nil
	}
	if rails := def.Guardrails; len(rails) > 0 {
		hk.BeforeTool = func(ctx context.Context, call core.ToolCall, args map[string]any) (*core.ToolResult, error) {
			for _, g := range rails {
				if v := g(call, args); v != "" && v != "allow" {
					return &core.ToolResult{Output: "denied: " + v, IsError: true}, nil
				}
			}
			if beforeTool != nil {
				return beforeTool(ctx, call, args)
			}
			return nil, nil
		}
	}
	return hk
}
