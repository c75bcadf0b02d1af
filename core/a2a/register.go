package a2a

import (
	"context"
	"sync"

	"github.com/toolnexus/wasm/core/tool"
)

func init() { tool.RegisterA2A(tool.A2AProvider{Parse: Parse, Tools: Tools}) }

// Tools fetches the card of every enabled agent, in parallel, and returns
// the tools of their skills in configuration order, with each agent's
// status by its configuration name: "connected" (with its tool count and
// the card's name), "disabled", or "failed" with the reason (never a
// header value). An agent that fails adds no tools; the others are not
// held up by it beyond its card's timeout (the agent's timeout, at most
// 30 s).
//
//	agents, _ := a2a.Parse([]byte(`{"agents": {"billing": {"card": "https://billing.example/.well-known/agent-card.json"}}}`))
//	tools, status := a2a.Tools(ctx, agents, tool.A2AEnv{})
//	// tools: billing_refund, billing_invoice …; status["billing"].Status == "connected"
func Tools(ctx context.Context, agents []tool.A2AAgent, env tool.A2AEnv) ([]tool.Tool, map[string]tool.A2AStatus) {
	if ctx == nil {
		ctx = context.Background()
	}
	found := make([][]tool.Tool, len(agents))
	states := make([]tool.A2AStatus, len(agents))
	var wg sync.WaitGroup
	for i, ag := range agents {
		if ag.Disabled {
			states[i] = tool.A2AStatus{Status: tool.MCPDisabled}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					states[i] = tool.A2AStatus{Status: tool.MCPFailed, Reason: "agent card: the reader panicked"}
				}
			}()
			tools, name, err := AgentTools(ctx, ag, env)
			if err != nil {
				states[i] = tool.A2AStatus{Status: tool.MCPFailed, Reason: err.Error()}
				return
			}
			found[i], states[i] = tools, tool.A2AStatus{Status: tool.MCPConnected, Tools: len(tools), Card: name}
		}()
	}
	wg.Wait()
	var out []tool.Tool
	status := make(map[string]tool.A2AStatus, len(agents))
	for i, ag := range agents {
		out = append(out, found[i]...)
		status[ag.Name] = states[i]
	}
	return out, status
}

// AgentTools fetches one agent's card and returns a tool of each of its
// skills, with the name on the card.
func AgentTools(ctx context.Context, ag tool.A2AAgent, env tool.A2AEnv) ([]tool.Tool, string, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if ag.TimeoutMs <= 0 {
		ag.TimeoutMs = defaultTimeoutMs
	}
	if ag.PollEveryMs <= 0 {
		ag.PollEveryMs = defaultPollEveryMs
	}
	c := conn{tr: env.Transport, headers: ag.Headers, fill: env.Fill}
	if c.tr == nil {
		c.tr = tool.DefaultTransport() // under js/wasm one that says the host must supply it
	}
	cd, err := fetchCard(ctx, ag, c)
	if err != nil {
		return nil, "", err
	}
	return skillTools(ag, cd, c), cd.name, nil
}
