package agents

import (
	"net/http"
	"time"

	coreagents "github.com/toolnexus/wasm/core/agents"
	tn "github.com/toolnexus/wasm/toolnexus"
)

// Options configures NewRuntime.
type Options struct {
	// Transport carries provider requests (a scripted RoundTripper in
	// tests). Nil: the default transport (net/http natively).
	Transport http.RoundTripper
	// Registry maps agent name → Def (Agent.Registry builds it).
	Registry map[string]Def
	// InboxCap bounds every inbox (default 8).
	InboxCap int
	// MaxConcurrentTurns bounds model calls in flight (default 8).
	MaxConcurrentTurns int
	// Shutdown is how long a graceful Close lets a turn finish (200ms).
	Shutdown time.Duration
	// LLM selects the provider; nil: placeholders for a scripted Transport.
	LLM *LLMOptions
	// Store keeps every handle's transcript under its id (default in memory).
	Store tn.ConversationStore
	// Clock is the time source (default: the real clock).
	Clock Clock
	// Hooks apply to every agent's turns unless its Def sets its own.
	Hooks *tn.Hooks
	// OnMetric receives every agent's metric events unless its Def sets one.
	OnMetric func(tn.MetricEvent)
}

// Placeholders for a runtime without LLMOptions: they reach only a
// scripted Transport.
const (
	placeholderBaseURL = "http://mock.local"
	placeholderAPIKey  = "local"
)

// kernelOptions is opts for core/agents. Runtime-wide Hooks and OnMetric
// become each Def's own where the Def sets none, which is the port's
// "replace, never merge".
func kernelOptions(opts Options, store tn.ConversationStore, clock Clock, onTrace func(string)) coreagents.Options {
	llm := coreagents.LLMOptions{BaseURL: placeholderBaseURL, Style: styleToCore(tn.StyleOpenAI), APIKey: placeholderAPIKey}
	if l := opts.LLM; l != nil {
		if l.BaseURL != "" {
			llm.BaseURL = l.BaseURL
		}
		if l.Style != "" {
			llm.Style = styleToCore(l.Style)
		}
		if l.APIKey != "" {
			llm.APIKey = l.APIKey
		}
		llm.Model = l.Model
	}
	if llm.Model == "" {
		llm.Model = "inherit" // the port sends an agent's "inherit" as it is
	}
	reg := make(map[string]coreagents.Def, len(opts.Registry))
	for name, d := range opts.Registry {
		reg[name] = defToCore(d, opts)
	}
	k := coreagents.Options{
		LLM: &llm, Registry: reg,
		InboxCap: opts.InboxCap, MaxConcurrentTurns: opts.MaxConcurrentTurns, Shutdown: opts.Shutdown,
		Store: portStore{inner: storeToCore(store), soulOf: soulFinder(opts.Registry), soulLead: llm.Style == styleToCore(tn.StyleOpenAI)},
		Clock: clock, OnTrace: onTrace,
		// The port checks budgets when a turn starts, not before each model call.
		BudgetAtTurnStart: true,
	}
	if opts.Transport != nil {
		k.Transport = roundTripTransport{rt: opts.Transport}
	}
	return k
}

func defToCore(d Def, opts Options) coreagents.Def {
	hooks := d.Hooks
	if hooks == nil {
		hooks = opts.Hooks
	}
	onMetric := d.OnMetric
	if onMetric == nil {
		onMetric = opts.OnMetric
	}
	k := coreagents.Def{
		Name: d.Name, Does: d.Does, Soul: d.Soul, Model: d.Model,
		Tools: toolsToCore(d.Tools), Team: d.Team, Budget: d.Budget,
		WaitFor: waitForToCore(d.WaitFor), OnSpawn: d.OnSpawn, OnClose: d.OnClose,
		Hooks: hooksToCore(hooks), OnMetric: metricSinkToCore(onMetric),
	}
	if c := d.Completion; c != nil {
		k.Completion = &coreagents.Completion{Verify: verifyToCore(c.Verify), MaxAttempts: c.MaxAttempts}
	}
	return k
}
