package agents

import (
	"math"
	"time"

	"github.com/toolnexus/wasm/core"
)

// State is a handle's lifecycle state: idle → running → idle, suspended or
// closed; a suspended handle runs again only through the Answer to its
// pending Request (inline WaitFor or Runtime.Resume).
type State string

// Handle states.
const (
	StateIdle      State = "idle"
	StateRunning   State = "running"
	StateSuspended State = "suspended"
	StateClosed    State = "closed"
)

// Close reasons handed to Spec.OnClose.
const (
	ReasonClosed      = "closed"
	ReasonInterrupted = "interrupted"
	ReasonBudget      = "budget"
	ReasonError       = "error"
)

// TaskResult.Status values: the agent vocabulary, a superset of core's run
// statuses ("timeout" only ever comes from Wait with a deadline).
const (
	TaskStatusDone        = "done"
	TaskStatusPending     = "pending"
	TaskStatusIncomplete  = "incomplete"
	TaskStatusInterrupted = "interrupted"
	TaskStatusClosed      = "closed"
	TaskStatusTimeout     = "timeout"
	TaskStatusError       = "error"
)

// TaskResult.Limit values: the Budget field (or other stop) that ended the
// work, spelled as the port spells it.
const (
	LimitMaxTurns      = "maxTurns"
	LimitMaxTokens     = "maxTokens"
	LimitMaxToolCalls  = "maxToolCalls"
	LimitMaxWallMs     = "maxWallMs"
	LimitMaxChildren   = "maxChildren"
	LimitMaxConcurrent = "maxConcurrent"
	LimitMaxDepth      = "maxDepth"
	LimitCompletion    = "completion"
	LimitTimeout       = "timeout"
)

// Unlimited is the "no cap" value of a budget pool.
const Unlimited int64 = math.MaxInt64 / 4

// Budget caps an agent's subtree. Zero fields are unset (defaults apply).
type Budget struct {
	// MaxTurns caps model calls per run (default 6); reaching it with tool
	// calls still coming is "incomplete".
	MaxTurns int
	// MaxTokens is the subtree's token pool: min(own, parent's remaining)
	// at spawn, then checked live against every ancestor.
	MaxTokens int64
	// MaxToolCalls is the subtree's tool-call pool (carved like MaxTokens).
	MaxToolCalls int64
	// MaxWall bounds the handle's lifetime from spawn (runtime Clock).
	MaxWall time.Duration
	// MaxChildren caps direct children (checked at spawn).
	MaxChildren int
	// MaxConcurrent caps simultaneously running children (default 8); more
	// wakes queue in order.
	MaxConcurrent int
	// MaxDepth caps how deep the subtree reaches, counting a top-level
	// agent as depth 1 (checked at spawn, default 3). Children inherit the
	// cap and may only lower it.
	MaxDepth int
}

// TaskResult is what crosses a handle boundary: always a result, never a
// panic or an error value.
type TaskResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError,omitempty"`
	// Status is one of the TaskStatus* values.
	Status string `json:"status"`
	// Limit names what stopped an "incomplete" result (Limit* values).
	Limit string `json:"limit,omitempty"`
	// Pending is the unresolved Request of a "pending" result; its
	// Data["path"] names the asking agent and Data["handle"] its handle id.
	Pending     *core.Request `json:"pending,omitempty"`
	Turns       int           `json:"turns"`
	TotalTokens int           `json:"totalTokens"`
}

// PostResult is the synchronous outcome of Post and Wake: a refusal is
// reported to the caller, never dropped silently.
type PostResult struct {
	Ok  bool   `json:"ok"`
	Err string `json:"error,omitempty"`
}

// InboxItem is one unsolicited message, with where it came from.
type InboxItem struct {
	// From is the sender's handle id, or "external".
	From string `json:"from"`
	// Channel tags the rail: "peer", "timer", "external", …
	Channel string `json:"channel"`
	Text    string `json:"text"`
}

// HandleView is one read-only row of List and Inspect.
type HandleView struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
	// Path is the agent names from the top-level agent down to this one.
	Path  []string `json:"path"`
	State State    `json:"state"`
	// Tokens is the subtree's rolled-up token usage.
	Tokens int `json:"tokens"`
	// Turns is the handle's cumulative model calls.
	Turns int `json:"turns"`
	// Inbox is the inbox depth.
	Inbox int `json:"inbox"`
	// PendingKind is the suspended Request's kind ("" unless suspended).
	PendingKind string `json:"pendingKind,omitempty"`
}

// CloseOptions tunes Close.
type CloseOptions struct {
	// Force interrupts a running turn at once instead of granting it
	// Options.Shutdown to finish.
	Force bool
	// Reason overrides the reason handed to OnClose.
	Reason string
}

// Clock is the runtime's time source: Wait deadlines, the Shutdown grace and
// MaxWall read it, so tests can run on a virtual clock.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
