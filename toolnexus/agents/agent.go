package agents

import (
	tn "github.com/toolnexus/wasm/toolnexus"
)

// Spec declares an agent.
type Spec struct {
	// Does is what a delegating model sees: when to hand this agent work.
	Does string
	// Tools is this agent's tool set (scoping is the security model).
	Tools []tn.Tool
	// Soul is the agent's system prompt.
	Soul string
	// SoulFile is read when the registry is built and wins over Soul when
	// it is readable.
	SoulFile string
	// Team lists the agents this one may delegate to with its task tool;
	// no team, no task tool.
	Team []*Agent
	// Budget caps this agent's subtree.
	Budget *Budget
	// Model is the model id; "" means "inherit" (LLMOptions.Model).
	Model string
	// WaitFor answers the suspensions of this agent's subtree.
	WaitFor func(tn.Request) (tn.Answer, error)
	OnSpawn func(h *Handle)
	OnClose func(h *Handle, reason string)
	// Hooks, when set, replace Options.Hooks for this agent's turns.
	Hooks *tn.Hooks
	// OnMetric, when set, replaces Options.OnMetric for this agent.
	OnMetric func(tn.MetricEvent)
	// Guardrails run before every tool call, first denial wins, ahead of
	// Hooks.BeforeTool (which runs only when all allow).
	Guardrails []Guardrail
	// Completion gates "done"; a delegating parent inherits it.
	Completion *Completion
}

// Def is a registered agent definition: what a Runtime spawns by name.
// Hooks here already carry the Spec's guardrails (Agent.Registry).
type Def struct {
	Name       string
	Does       string
	Soul       string
	Model      string
	Tools      []tn.Tool
	Completion *Completion
	Team       []string
	Budget     *Budget
	WaitFor    func(tn.Request) (tn.Answer, error)
	OnSpawn    func(h *Handle)
	OnClose    func(h *Handle, reason string)
	// Hooks, when set, replace Options.Hooks for this agent (never merged).
	Hooks *tn.Hooks
	// OnMetric, when set, replaces Options.OnMetric for this agent.
	OnMetric func(tn.MetricEvent)
}

// Agent is a named Spec.
type Agent struct {
	Name string
	Spec Spec
}

// New builds an Agent.
func New(name string, spec Spec) *Agent { return &Agent{Name: name, Spec: spec} }

// Harness returns s: a Spec read as the capability set and boundaries an
// agent works within (no second type; Model + Harness = Agent).
func Harness(s Spec) Spec { return s }

// Registry is this agent and every agent reachable through teams, by
// name; the first agent of a name wins.
func (a *Agent) Registry() map[string]Def {
	acc := map[string]Def{}
	a.addTo(acc)
	return acc
}

func (a *Agent) addTo(acc map[string]Def) {
	if _, seen := acc[a.Name]; seen {
		return
	}
	soul := a.Spec.Soul
	if a.Spec.SoulFile != "" {
		if s, err := readFile(a.Spec.SoulFile); err == nil {
			soul = s
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
		WaitFor: a.Spec.WaitFor, OnSpawn: a.Spec.OnSpawn, OnClose: a.Spec.OnClose,
		Hooks: withGuardrails(a.Spec.Hooks, a.Spec.Guardrails), OnMetric: a.Spec.OnMetric,
		Completion: a.Spec.Completion,
	}
	for _, t := range a.Spec.Team {
		t.addTo(acc)
	}
}

// Run runs prompt on a new runtime over this agent's registry. The runtime
// is closed unless the run halted ("pending"): then it stays open for
// Runtime.Resume.
func (a *Agent) Run(opts Options, prompt string) (TaskResult, *Runtime) {
	opts.Registry = a.Registry()
	rt := NewRuntime(opts)
	h, err := rt.Spawn(rt.Root, a.Name, nil)
	if err != nil {
		return TaskResult{Text: err.Error(), IsError: true, Status: "error"}, rt
	}
	rt.Wake(h, prompt)
	r := rt.Wait(h, 0)
	if r.Status != "pending" {
		rt.Close(rt.Root, nil)
	}
	return r, rt
}

// AsTool is the agent as a tool for the classic toolkit: its input is a
// prompt, its output the agent's final text, its metadata the agent's
// name, turns and tokens.
func (a *Agent) AsTool(opts Options) tn.Tool {
	return tn.Tool{
		Name:        a.Name,
		Description: a.Spec.Does,
		InputSchema: tn.JSONSchema{
			"type":       "object",
			"properties": map[string]any{"prompt": map[string]any{"type": "string"}},
			"required":   []any{"prompt"},
		},
		Source: tn.SourceCustom,
		Execute: func(args map[string]any, _ *tn.ToolContext) (tn.ToolResult, error) {
			prompt, _ := args["prompt"].(string)
			r, _ := a.Run(opts, prompt)
			return tn.ToolResult{Output: r.Text, IsError: r.IsError, Metadata: map[string]any{
				"agent": a.Name, "turns": r.Turns, "totalTokens": r.TotalTokens,
			}}, nil
		},
	}
}
