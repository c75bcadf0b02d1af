package journal

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"strconv"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/wire"
)

// Journal keeps one run's entries. See the package doc for the contract.
type Journal interface {
	// Load returns every entry recorded, in the order recorded (none for a
	// journal that holds no run yet).
	Load(ctx context.Context) ([]Entry, error)
	// Record appends e, durably, before it returns. An entry whose Key is
	// recorded already is refused with an error matching ErrDuplicate.
	Record(ctx context.Context, e Entry) error
}

// ErrDuplicate is what errors.Is finds when Record refuses an entry whose
// Key is recorded already: another continuation of the run got there first.
var ErrDuplicate = errors.New("journal: entry recorded already")

// The kinds of entries, in the order a run records them.
const (
	KindStart   = "start"
	KindModel   = "model"
	KindTurn    = "turn"
	KindCall    = "call"
	KindOutcome = "outcome"
	KindSuspend = "suspend"
	KindAnswer  = "answer"
	KindEnd     = "end"
	// KindDecision is a decision of the approval record (core/approval):
	// a rule's or a grant's about a call, a person's answer as it took
	// effect, a grant revoked. It may come at any point, after the end too.
	KindDecision = "decision"
)

// MaxAttempts bounds how often one model call, or one call of a tool that
// may run again, is begun without a recorded result before the run gives
// up on it: an isolate that dies on the same step every time must not keep
// a run "running" for ever.
const MaxAttempts = 3

// Entry is one step of a run. Kind says which fields it uses; the JSON
// keys are fixed, since hosts keep entries as JSON text.
type Entry struct {
	Kind string `json:"kind"`
	// At is when the entry was recorded, in Unix milliseconds.
	At int64 `json:"at,omitempty"`
	// Turn is the model call an entry belongs to, counting from 1 (model,
	// turn, call, outcome, suspend).
	Turn int `json:"turn,omitempty"`
	// Call is the tool call's id (call, outcome, suspend).
	Call string `json:"call,omitempty"`
	// Attempt counts from 1 (model, call).
	Attempt int `json:"attempt,omitempty"`

	// Run is the run's id (start); idempotency keys are "<run>:<call id>".
	Run string `json:"run,omitempty"`
	// Prompt is the user's message the run starts with (start; none for a
	// resume).
	Prompt string `json:"prompt,omitempty"`
	// History is the transcript before the prompt (start); for a resume,
	// the halted transcript.
	History []json.RawMessage `json:"history,omitempty"`
	// Meta is the host's own data about the run (start), kept as given.
	Meta json.RawMessage `json:"meta,omitempty"`
	// Request is what a call suspended on (suspend), or the request a
	// resume's history is halted on (start).
	Request *tool.Request `json:"request,omitempty"`

	// Message is the model's reply as the transcript holds it (turn).
	Message json.RawMessage `json:"message,omitempty"`
	// Text is the reply's text (turn) or the run's final text (end).
	Text string `json:"text,omitempty"`
	// Calls are the tool calls of the reply, in order (turn).
	Calls []wire.ToolCall `json:"calls,omitempty"`
	// Usage is the reply's token count (turn).
	Usage *wire.Usage `json:"usage,omitempty"`
	// Model is the model the provider said answered (turn).
	Model string `json:"model,omitempty"`

	// Name is the tool's name (call, outcome).
	Name string `json:"name,omitempty"`
	// Args are the arguments the call runs (call) or ran (outcome) with,
	// as JSON text; Asked, when an approval edited them, the model's.
	Args  json.RawMessage `json:"args,omitempty"`
	Asked json.RawMessage `json:"asked,omitempty"`
	// IdempotencyKey is the call's key, "<run>:<call id>" (call).
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// Output and IsError are the result the model reads (outcome).
	Output  string `json:"output,omitempty"`
	IsError bool   `json:"isError,omitempty"`
	// Declined: a person declined the call (outcome).
	Declined bool `json:"declined,omitempty"`
	// Recorded: a person gave the result of a call whose outcome was
	// unknown; the tool did not give it (outcome).
	Recorded bool `json:"recorded,omitempty"`
	// Metadata is the tool result's metadata, as JSON (outcome).
	Metadata json.RawMessage `json:"metadata,omitempty"`

	// Answer resolves a request (answer); By says who or what gave it
	// ("in page", "link", "api", …), for the record.
	Answer *tool.Answer `json:"answer,omitempty"`
	By     string       `json:"by,omitempty"`

	// Decision is the approval record's entry, as JSON (decision).
	Decision json.RawMessage `json:"decision,omitempty"`

	// Status and Limit are the run's end (end: "done", "incomplete",
	// "error"); Error says why a run failed.
	Status string `json:"status,omitempty"`
	Limit  string `json:"limit,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Key identifies an entry among a run's: a journal refuses a second entry
// with the same key (ErrDuplicate).
func (e Entry) Key() string {
	t := strconv.Itoa(e.Turn)
	switch e.Kind {
	case KindModel:
		return "model/" + t + "/" + strconv.Itoa(e.Attempt)
	case KindTurn:
		return "turn/" + t
	case KindCall:
		return "call/" + t + "/" + e.Call + "/" + strconv.Itoa(e.Attempt)
	case KindOutcome:
		return "outcome/" + t + "/" + e.Call
	case KindSuspend:
		id := ""
		if e.Request != nil {
			id = e.Request.ID
		}
		return "suspend/" + t + "/" + e.Call + "/" + id
	case KindAnswer:
		id := ""
		if e.Answer != nil {
			id = e.Answer.ID
		}
		return "answer/" + id
	case KindDecision:
		// One decision of each kind per call (of one agent, in a team)
		// and request.
		d := gjson.ParseBytes(e.Decision)
		path := ""
		for _, p := range d.Get("path").Array() {
			path += "/" + p.String()
		}
		return "decision/" + t + "/" + e.Call + "/" + d.Get("request").String() + "/" + d.Get("decision").String() + path
	}
	return e.Kind // start, end: once per run
}

// Start is the entry a run begins with: prompt after history, under run
// id run (idempotency keys are "<run>:<call id>"). meta is the host's own
// data about the run, kept as given (nil for none).
func Start(run, prompt string, history []json.RawMessage, meta json.RawMessage) Entry {
	return Entry{Kind: KindStart, Run: run, Prompt: prompt, History: history, Meta: meta}
}

// Resume is the entry a resumed run begins with: the transcript of a run
// that halted on pending (core's RunResult.Messages and Pending). Its
// answer is an Answer entry recorded after it.
func Resume(run string, halted []json.RawMessage, pending tool.Request, meta json.RawMessage) Entry {
	return Entry{Kind: KindStart, Run: run, History: halted, Request: &pending, Meta: meta}
}

// AnswerEntry is the entry of an answer to a pending request, by the
// person or part of the host named by by.
func AnswerEntry(a tool.Answer, by string) Entry {
	return Entry{Kind: KindAnswer, Answer: &a, By: by}
}
