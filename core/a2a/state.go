package a2a

import (
	"strings"

	"github.com/toolnexus/wasm/core/tool"
)

// The task states, as A2A 0.3 and the Go port of toolnexus write them.
// A2A 1.0's JSON writes TASK_STATE_INPUT_REQUIRED for "input-required":
// NormalizeState reads both, WireState writes 1.0's.
const (
	StateSubmitted     = "submitted"
	StateWorking       = "working"
	StateCompleted     = "completed"
	StateFailed        = "failed"
	StateCanceled      = "canceled"
	StateRejected      = "rejected"
	StateInputRequired = "input-required"
	StateAuthRequired  = "auth-required"
	StateUnknown       = "unknown"
)

// NormalizeState returns state in the 0.3 words: "TASK_STATE_WORKING",
// "working" and "WORKING" are all "working"; "cancelled" is "canceled";
// "" and anything unknown is "unknown".
func NormalizeState(state string) string {
	s := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(state), "TASK_STATE_"))
	s = strings.ReplaceAll(s, "_", "-")
	switch s {
	case StateSubmitted, StateWorking, StateCompleted, StateFailed, StateCanceled, StateRejected, StateInputRequired, StateAuthRequired:
		return s
	case "cancelled":
		return StateCanceled
	}
	return StateUnknown
}

// WireState is state as A2A 1.0's JSON writes it: "input-required" is
// "TASK_STATE_INPUT_REQUIRED".
func WireState(state string) string {
	s := NormalizeState(state)
	if s == StateUnknown {
		return "TASK_STATE_UNSPECIFIED"
	}
	return "TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(s, "-", "_"))
}

// Terminal reports whether a task in state has ended for good.
func Terminal(state string) bool {
	switch NormalizeState(state) {
	case StateCompleted, StateFailed, StateCanceled, StateRejected:
		return true
	}
	return false
}

// Interrupted reports whether a task in state waits for its client: for
// an answer (input-required) or a sign-in (auth-required).
func Interrupted(state string) bool {
	switch NormalizeState(state) {
	case StateInputRequired, StateAuthRequired:
		return true
	}
	return false
}

// StateOf is the state of a task that a run fulfils, once the run ends:
// an error is "failed"; a run halted on a Request is "auth-required" when
// it asks for a sign-in (kind "authorization") and "input-required"
// otherwise (an approval, a question, an input); a finished run
// ("done", or "incomplete" at a turn or time limit, whose text is still
// the answer) is "completed". A server of tasks (the Go port's Serve, the
// Worker's A2A endpoint) uses it, so both map a run the same way.
func StateOf(status string, pending *tool.Request, err error) string {
	switch {
	case err != nil:
		return StateFailed
	case status == "pending" && pending != nil && pending.Kind == tool.KindAuthorization:
		return StateAuthRequired
	case status == "pending" && pending != nil:
		return StateInputRequired
	}
	return StateCompleted
}
