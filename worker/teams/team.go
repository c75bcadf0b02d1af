package teams

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

// agentTeam is what one request runs a declared agent with: the request's
// toolkit (open for the whole run: the agents' tools are its tools) and
// the runtime options over the registry AGENTS declares.
type agentTeam struct {
	tk   *core.Toolkit
	opts agents.Options
}

// newAgentTeam builds the registry of AGENTS over the request's toolkit
// (its file tools on workspace) and the Worker's model settings, which
// apply to every agent. It answers 400 when AGENTS declares no agent of
// that name, 500 for a configuration problem (a listed tool the toolkit
// does not have, say because its MCP server is down), and reports false
// when it has answered.
func newAgentTeam(h *worker.Handler, ctx context.Context, w httpx.ResponseWriter, cfg worker.Config, workspace, agent string, onMetric func(agents.MetricEvent)) (agentTeam, bool) {
	team, err := buildAgentTeam(h, ctx, cfg, workspace, agent, onMetric)
	unknown, isUnknown := errors.AsType[*unknownAgentError](err)
	switch ce, isConfig := errors.AsType[*worker.ConfigError](err); {
	case err == nil:
		return team, true
	case isUnknown:
		worker.WriteError(w, httpx.StatusBadRequest, "unknown_agent", unknown.Error())
	case isConfig:
		h.WriteConfigError(w, ce)
	default:
		if errs, ok := errors.AsType[worker.ConfigErrors](err); ok {
			h.WriteConfigError(w, errs)
		} else {
			h.InternalError(w, err)
		}
	}
	return agentTeam{}, false
}

// unknownAgentError is a run of an agent AGENTS does not declare.
type unknownAgentError struct{ msg string }

func (e *unknownAgentError) Error() string { return e.msg }

// buildAgentTeam is newAgentTeam returning its problem rather than
// answering it: a durable run's executor has no request to answer.
func buildAgentTeam(h *worker.Handler, ctx context.Context, cfg worker.Config, workspace, agent string, onMetric func(agents.MetricEvent)) (agentTeam, error) {
	decls, err := worker.ParseAgents(h.Options().Getenv(worker.AgentsSetting), nil)
	if err != nil {
		return agentTeam{}, err
	}
	declared := false
	names := make([]string, 0, len(decls))
	for _, d := range decls {
		declared = declared || d.Name == agent
		names = append(names, d.Name)
	}
	if !declared {
		msg := "agent " + worker.QuoteClip(agent) + " is not declared in this Worker's " + worker.AgentsSetting + " setting"
		if len(names) > 0 {
			msg += " (declared: " + strings.Join(names, ", ") + ")"
		}
		return agentTeam{}, &unknownAgentError{msg}
	}
	tk, err := h.NewToolkit(ctx, workspace)
	if err != nil {
		return agentTeam{}, fmt.Errorf("build toolkit: %w", err)
	}
	registry := make(map[string]agents.Def, len(decls))
	for _, d := range decls {
		def, err := agentDef(d, cfg, tk)
		if err != nil {
			tk.Close()
			return agentTeam{}, err
		}
		registry[d.Name] = def
	}
	return agentTeam{tk: tk, opts: agents.Options{
		LLM:       &agents.LLMOptions{BaseURL: cfg.BaseURL, Style: core.Style(cfg.Style), APIKey: cfg.APIKey, Model: cfg.Model},
		Transport: h.Options().Transport,
		Registry:  registry,
		OnMetric:  onMetric,
		// APPROVAL_RULES, read before every agent's calls; a rule may name
		// the asking agent.
		Approvals: tk.Approvals(),
		// No per-client timeout: the request's deadline (runTeam) bounds
		// the whole tree and closes it, so a stop is always "timeout".
		ClientOptions: core.ClientOptions{Retries: cfg.Retries},
	}}, nil
}

// agentDef turns one declared agent into the runtime's Def: its tools are
// the toolkit's tools of those names, its instructions (else
// SYSTEM_PROMPT) its system prompt, and MAX_TURNS its default turn cap.
func agentDef(d worker.AgentDecl, cfg worker.Config, tk *core.Toolkit) (agents.Def, error) {
	tools := make([]core.Tool, 0, len(d.Tools))
	for _, name := range d.Tools {
		t, ok := tk.Get(name)
		if !ok {
			return agents.Def{}, &worker.ConfigError{Setting: worker.AgentsSetting, Problem: fmt.Sprintf("agent %s: tool %s is not offered by this Worker now (GET /v1/tools lists them; an MCP server may be down)", d.Name, worker.QuoteClip(name))}
		}
		tools = append(tools, t)
	}
	budget := d.Budget
	if cfg.MaxTurns > 0 && (budget == nil || budget.MaxTurns == 0) {
		b := agents.Budget{}
		if budget != nil {
			b = *budget
		}
		b.MaxTurns = cfg.MaxTurns
		budget = &b
	}
	soul := d.Instructions
	if strings.TrimSpace(soul) == "" {
		soul = cfg.SystemPrompt
	}
	return agents.Def{Name: d.Name, Does: d.Does, Soul: soul, Model: "inherit", Tools: tools, Team: d.Team, Budget: budget}, nil
}

// runTeam runs start (a fresh run or a resume of rt) until it settles or
// ctx ends; then the whole tree is closed at once and the result says why.
// The runtime's verbs take no context, so the deadline is enforced here.
func runTeam(ctx context.Context, rt *agents.Runtime, start func() agents.TaskResult) agents.TaskResult {
	done := make(chan agents.TaskResult, 1)
	go func() { done <- start() }()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		rt.Close(rt.Root, &agents.CloseOptions{Force: true, Reason: agents.ReasonInterrupted})
		<-done
		status := agents.TaskStatusInterrupted
		if ctx.Err() == context.DeadlineExceeded {
			status = agents.TaskStatusTimeout
		}
		return agents.TaskResult{Text: "the run was stopped: " + ctx.Err().Error(), IsError: true, Status: status}
	}
}

// startAgent spawns the declared agent under rt's root, wakes it with
// prompt and waits for its result.
func startAgent(rt *agents.Runtime, agent, prompt string) func() agents.TaskResult {
	return func() agents.TaskResult {
		h, err := rt.Spawn(rt.Root, agent, nil)
		if err != nil {
			return agents.TaskResult{Text: err.Error(), IsError: true, Status: agents.TaskStatusError}
		}
		rt.Wake(h, prompt)
		return rt.Wait(h, 0)
	}
}
