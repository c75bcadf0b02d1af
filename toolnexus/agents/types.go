package agents

import (
	"time"

	coreagents "github.com/toolnexus/wasm/core/agents"
	tn "github.com/toolnexus/wasm/toolnexus"
)

// The kernel's types that have the port's shape, under the port's names.
type (
	// State is a handle's lifecycle state.
	State = coreagents.State
	// Budget caps an agent's subtree; zero fields take the defaults.
	Budget = coreagents.Budget
	// Handle is a live agent in a Runtime's tree.
	Handle = coreagents.Handle
	// HandleView is one read-only row of List and Inspect.
	HandleView = coreagents.HandleView
	// InboxItem is one unsolicited message, with its sender and channel.
	InboxItem = coreagents.InboxItem
	// PostResult is the synchronous outcome of Post and Wake.
	PostResult = coreagents.PostResult
	// CloseOptions tunes Close.
	CloseOptions = coreagents.CloseOptions
	// Clock is the runtime's time source.
	Clock = coreagents.Clock
)

// Handle states.
const (
	StateIdle      = coreagents.StateIdle
	StateRunning   = coreagents.StateRunning
	StateSuspended = coreagents.StateSuspended
	StateClosed    = coreagents.StateClosed
)

// Close reasons handed to OnClose.
const (
	ReasonClosed      = coreagents.ReasonClosed
	ReasonInterrupted = coreagents.ReasonInterrupted
	ReasonBudget      = coreagents.ReasonBudget
	ReasonError       = coreagents.ReasonError
)

// Unlimited is the "no cap" value of a budget pool.
const Unlimited = coreagents.Unlimited

// TaskResult is what crosses a handle boundary: always a result. Status is
// one of "done", "pending", "incomplete", "interrupted", "closed",
// "timeout", "error"; Pending is set when it is "pending", and its
// Data["path"] names the agents down to the one that asks.
type TaskResult struct {
	Text        string
	IsError     bool
	Status      string
	Pending     *tn.Request
	Turns       int
	TotalTokens int
}

func taskResultFromCore(r coreagents.TaskResult) TaskResult {
	return TaskResult{
		Text: portBudgetText(r), IsError: r.IsError, Status: r.Status,
		Pending: requestFromCore(portPath(r.Pending)), Turns: r.Turns, TotalTokens: r.TotalTokens,
	}
}

// LLMOptions points the runtime at a provider. Nil Options.LLM (or empty
// fields) means placeholders fit only for a scripted Options.Transport.
type LLMOptions struct {
	BaseURL string
	Style   tn.ClientStyle
	APIKey  string
	// Model is the default for agents whose model is "" or "inherit".
	Model string
}

// Guardrail is a policy check on one tool call: "" or "allow" permits it,
// anything else is the reason it is denied.
type Guardrail func(ev tn.BeforeToolEvent) string

// Completion is the gate an agent passes before it may report "done":
// Verify judges the run (the reason is fed back on failure), at most
// MaxAttempts (≥ 1) times.
type Completion struct {
	Verify      func(tn.RunResult) (bool, string)
	MaxAttempts int
}

// systemClock is the real Clock, the default.
type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
