package agents

import (
	"context"

	"github.com/toolnexus/wasm/core"
)

// Spec declares an agent.
type Spec struct {
	// Does is what a delegating model sees: when to hand this agent a task.
	Does string
	// Tools is this agent's tool set; scoping tools per agent is the
	// security model. Built-ins are never added implicitly.
	Tools []core.Tool
	// Soul is the agent's system prompt (its identity and instructions).
	Soul string
	// Instructions is Soul under the name the JS API uses; Soul wins when
	// both are set.
	Instructions string
	// SoulFile is read when the registry is built and wins over Soul when
	// it is readable (never under js/wasm, which has no file system).
	SoulFile string
	// Team lists the agents this one may delegate to through its "task"
	// tool. No team, no task tool: delegation is opt-in.
	Team []*Agent
	// Budget caps this agent's subtree.
	Budget *Budget
	// Model is the model id; "" or "inherit" uses LLMOptions.Model.
	Model string
	// WaitFor answers suspensions of this agent and of its subtree (the
	// nearest WaitFor on the chain answers).
	WaitFor func(core.Request) (core.Answer, error)
	// WaitForContext is WaitFor with the turn's context, cancelled when the
	// turn is interrupted or closed (withdraw the question then); it is used
	// instead of WaitFor when set. A plain WaitFor that never returns keeps
	// Close waiting.
	WaitForContext func(context.Context, core.Request) (core.Answer, error)
	// OnSpawn runs once per handle, before its first turn.
	OnSpawn func(h *Handle)
	// OnClose runs when the handle closes, with a Reason* value.
	OnClose func(h *Handle, reason string)
	// Hooks are core's loop hooks for this agent's turns.
	Hooks *core.Hooks
	// OnMetric receives core's metric events of this agent's turns.
	OnMetric func(core.MetricEvent)
	// Guardrails are policy checks on tool calls: return "" or "allow" to
	// permit, anything else is the reason for a denial. They are approval
	// rules of the agent's (core/approval), read first: the first denial
	// wins, the record names it ("guardrail 2 of billing"), and a denied
	// call runs no hook.
	Guardrails []Guardrail
	// Completion, when set, must pass before the agent may report "done";
	// it travels with the agent, so a delegating parent gets it too.
	Completion *Completion
	// Compact, when set, rewrites the agent's transcript before each new
	// turn, to keep a long-lived agent within its context (see Compactor).
	Compact func(history []any) ([]any, error)
}

// Completion is the gate an agent passes before it may report "done".
type Completion struct {
	// Verify reports whether the run's work holds, and why not; the reason
	// is fed back to the agent for its next attempt.
	Verify func(core.RunResult) (bool, string)
	// MaxAttempts (≥ 1) bounds the attempts; then the result is
	// "incomplete" with Limit "completion".
	MaxAttempts int
}

// Def is a registered agent definition: what a Runtime spawns by name.
type Def struct {
	Name    string
	Does    string
	Soul    string
	Model   string
	Tools   []core.Tool
	Team    []string
	Budget  *Budget
	WaitFor func(core.Request) (core.Answer, error)
	// WaitForContext: see Spec.WaitForContext.
	WaitForContext func(context.Context, core.Request) (core.Answer, error)
	OnSpawn        func(h *Handle)
	OnClose        func(h *Handle, reason string)
	Hooks          *core.Hooks
	OnMetric       func(core.MetricEvent)
	Guardrails     []Guardrail
	Completion     *Completion
	Compact        func(history []any) ([]any, error)
}

// Agent is a named Spec.
type Agent struct {
	Name string
	Spec Spec
}

// New builds an Agent.
func New(name string, spec Spec) *Agent { return &Agent{Name: name, Spec: spec} }

// Harness returns s: a name for reading a Spec as the capability set and
// boundaries an agent works within (no second type underneath).
func Harness(s Spec) Spec { return s }

// Registry collects this agent and every agent reachable through teams,
// by name. Unreachable agents are absent; the first agent of a name wins.
func (a *Agent) Registry() map[string]Def {
	acc := map[string]Def{}
	a.registryInto(acc)
	return acc
}

func (a *Agent) registryInto(acc map[string]Def) {
	if _, seen := acc[a.Name]; seen {
		return
	}
	soul := a.Spec.Soul
	if soul == "" {
		soul = a.Spec.Instructions
	}
	if a.Spec.SoulFile != "" {
		if b, ok := readSoulFile(a.Spec.SoulFile); ok {
			soul = b
		}
	}
	model := a.Spec.Model
	if model == "" {
		model = "inherit"
	}
	team := make([]string, 0, len(a.Spec.Team))
	for _, t := range a.Spec.Team {
		team = append(team, t.Name)
	}
	acc[a.Name] = Def{
		Name: a.Name, Does: a.Spec.Does, Soul: soul, Model: model,
		Tools: a.Spec.Tools, Team: team, Budget: a.Spec.Budget,
		WaitFor: a.Spec.WaitFor, WaitForContext: a.Spec.WaitForContext, OnSpawn: a.Spec.OnSpawn, OnClose: a.Spec.OnClose,
		Hooks: a.Spec.Hooks, OnMetric: a.Spec.OnMetric,
		Guardrails: a.Spec.Guardrails, Completion: a.Spec.Completion, Compact: a.Spec.Compact,
	}
	for _, t := range a.Spec.Team {
		t.registryInto(acc)
	}
}

// Run runs prompt on a fresh runtime built over this agent's registry and
// returns the result with the runtime. The runtime is closed unless the run
// halted (Status "pending"): then it stays open for Runtime.Resume (or
// Runtime.Snapshot), and the caller closes it.
//
//	res, rt := support.Run(agents.Options{LLM: llm}, "review order 42")
//	if res.Status == agents.TaskStatusPending {
//		res, err = rt.Resume(core.Answer{ID: res.Pending.ID, Ok: true})
//	}
//	rt.Close(rt.Root, nil)
func (a *Agent) Run(opts Options, prompt string) (TaskResult, *Runtime) {
	opts.Registry = a.Registry()
	rt := NewRuntime(opts)
	h, err := rt.Spawn(rt.Root, a.Name, nil)
	if err != nil {
		return TaskResult{Text: err.Error(), IsError: true, Status: TaskStatusError}, rt
	}
	rt.Wake(h, prompt)
	r := rt.Wait(h, 0)
	if r.Status != TaskStatusPending {
		rt.Close(rt.Root, nil)
	}
	return r, rt
}
