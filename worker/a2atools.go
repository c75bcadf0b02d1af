package worker

import (
	"context"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/tool"
)

// A2A_AGENTS holds remote A2A agents (core/a2a.Parse), in the shape of
// MCP_CONFIG's servers, e.g.
//
//	{"billing": {"card": "https://billing.example/.well-known/agent-card.json",
//	  "headers": {"authorization": "Bearer ${BILLING_TOKEN}"}, "timeout": 120000}}
//
// Each skill on an agent's card becomes a tool (source "a2a", named
// <card name>_<skill id>). ${NAME} in a header value is filled from the
// Worker's environment (a var or a secret); an unset name fails that
// agent. The cards are fetched on every request that builds a toolkit, as
// MCP_CONFIG's servers are contacted; an agent that fails is left out and
// logged, and the request goes on without its tools. A remote task that
// asks for a person (input-required, auth-required) halts the run as any
// approval does: /v1/resume (or a durable run's approval link) with the
// answer continues the remote task, a decline cancels it. Only a build
// whose main imports core/a2a has the client (wasm/worker does); without
// it, A2A_AGENTS is a *ConfigError.

// a2aAgents parses A2A_AGENTS; none set is nil.
func (h *Handler) a2aAgents() ([]tool.A2AAgent, error) {
	cfg := strings.TrimSpace(h.opts.Getenv("A2A_AGENTS"))
	if cfg == "" {
		return nil, nil
	}
	p := tool.A2A()
	if p == nil {
		return nil, &ConfigError{Setting: "A2A_AGENTS", Problem: "is set, and this build has no A2A client (its main does not import core/a2a)"}
	}
	agents, err := p.Parse([]byte(cfg))
	if err != nil {
		// The parser names agents and fields, never header values.
		return nil, &ConfigError{Setting: "A2A_AGENTS", Problem: "is invalid: " + strings.TrimPrefix(err.Error(), "a2a config: ")}
	}
	return agents, nil
}

// addA2A adds the tools of A2A_AGENTS' agents to opts, after its own, and
// logs each agent that failed (reasons never carry header values).
func (h *Handler) addA2A(ctx context.Context, opts *core.Options) error {
	agents, err := h.a2aAgents()
	if err != nil || len(agents) == 0 {
		return err
	}
	vars := map[string]string{}
	for _, name := range variableNames(h.opts.Getenv("A2A_AGENTS")) {
		if v := h.opts.Getenv(name); v != "" {
			vars[name] = v
		}
	}
	tools, status := tool.A2A().Tools(ctx, agents, tool.A2AEnv{Transport: h.opts.Transport,
		Fill: func(v string) (string, error) { return tool.FillVariables(v, vars, nil) }})
	for _, ag := range agents {
		if st := status[ag.Name]; st.Status == tool.MCPFailed {
			h.opts.Logf("worker: a2a agent %s failed: %s", ag.Name, st.Reason)
		}
	}
	opts.ExtraTools = append(opts.ExtraTools, tools...)
	return nil
}
