package agents

import (
	"context"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
)

// LLMOptions points the runtime at a provider. Model is the default for
// agents that name none.
type LLMOptions struct {
	BaseURL string
	Style   core.Style
	APIKey  string
	Model   string
	// Headers are added to every provider request.
	Headers map[string]string
}

// Options configures NewRuntime (and Agent.Run, Agent.AsTool).
type Options struct {
	// LLM selects the provider reached through Transport.
	LLM *LLMOptions
	// Transport carries provider requests (default: core's; under js/wasm
	// the JS bridge supplies one over fetch). The global turn gate wraps it.
	Transport core.Transport
	// Generate, when set, is an in-process model used instead of LLM and
	// Transport (core.CreateInProcessClient): a local model or a test double.
	Generate core.GenerateFunc
	// Registry maps agent name → Def. Agent.Registry builds it from a team.
	Registry map[string]Def
	// WaitFor is the runtime-wide interpreter: it answers a suspension no
	// agent on the asking agent's chain answers. Nil: such a suspension
	// halts the run with status "pending" (resume with Runtime.Resume).
	WaitFor func(core.Request) (core.Answer, error)
	// WaitForContext is WaitFor with the turn's context (see
	// Spec.WaitForContext); it is used instead of WaitFor when set.
	WaitForContext func(context.Context, core.Request) (core.Answer, error)
	// BudgetAtTurnStart checks the token, tool-call and wall-clock pools
	// only when a turn starts and at spawn (the Go port's rule: a turn
	// admitted within budget runs to its end). By default they are also
	// checked before every model call, so a turn stops once a pool is dry.
	BudgetAtTurnStart bool
	// InboxCap bounds every inbox (default 8); a post at the cap is refused.
	InboxCap int
	// MaxConcurrentTurns bounds model calls in flight runtime-wide
	// (default 8). It gates each provider call only, never a whole run, so
	// a parent waiting on its children cannot starve them.
	MaxConcurrentTurns int
	// Shutdown is how long a graceful Close lets a running turn finish
	// before interrupting it (default 200ms).
	Shutdown time.Duration
	// Store keeps each handle's committed transcript under its handle id
	// (default: in memory). A halted turn is kept on the handle (and in
	// Snapshot) until it is resumed, then committed.
	Store core.ConversationStore
	// Clock is the time source (default: the real clock).
	Clock Clock
	// OnMetric receives core's metric events, each labelled with the
	// agent's path; a Spec.OnMetric of the agent receives them too.
	OnMetric func(MetricEvent)
	// OnStream, when set, makes every agent's turns stream and receives
	// their events (text deltas, tool calls and results, pending, usage),
	// each with the agent's path.
	OnStream func(StreamEvent)
	// OnEvent receives the runtime's transitions (spawn, run, suspend,
	// resume, done, close), each with the agent's path.
	OnEvent func(Event)
	// OnTrace receives one text line per transition ("root/a.1: idle→running
	// (wake)"), in the trace vocabulary the toolnexus ports share, for logs
	// and cross-port fixtures. It may be called with the runtime's lock held,
	// so it must not call the runtime.
	OnTrace func(line string)
	// Approvals is the approval policy of every agent's calls
	// (core/approval): its rules (a rule may name the asking agent: its
	// name, or the end of its path), the grants of "allow for this
	// conversation" — a runtime is one conversation — and OnDecision,
	// which receives each decision with the agent's path. Each agent's
	// Guardrails come first, as rules of its own.
	Approvals *approval.Policy
	// ClientOptions is the template for every agent's client (timeouts,
	// retries, request params); the runtime sets Model, SystemPrompt,
	// MaxTurns, WaitFor, Hooks, Transport and OnMetric itself.
	ClientOptions core.ClientOptions
}

// MetricEvent is core's MetricEvent labelled with the agent that caused it.
type MetricEvent struct {
	core.MetricEvent
	// Handle is the handle id ("root/support.1/billing.1").
	Handle string
	// Path is the agent names from the top-level agent down (["support",
	// "billing"]).
	Path []string
}

// Event is one transition of a handle, for progress displays and logs.
type Event struct {
	// Type is "spawned", "running", "suspended", "resumed", "settled" or
	// "closed".
	Type   string   `json:"type"`
	Handle string   `json:"handle"`
	Path   []string `json:"path"`
	State  State    `json:"state"`
	// Result is set on "settled".
	Result *TaskResult `json:"result,omitempty"`
	// Request is set on "suspended".
	Request *core.Request `json:"request,omitempty"`
}
