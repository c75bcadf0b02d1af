package core

import (
	"context"
	"strconv"
)

// RunTimeoutError is the error of a run that ClientOptions.TimeoutMs ended,
// as in the Go port: the result beside it has Status "incomplete" and Limit
// "timeout", with the work done before the deadline kept. errors.Is finds
// context.DeadlineExceeded, and whatever the run was doing when the time ran
// out (ErrWaitCancelled when a WaitFor was waiting).
type RunTimeoutError struct {
	TimeoutMs int
	cause     error
}

func (e *RunTimeoutError) Error() string {
	return "run timeout after " + strconv.Itoa(e.TimeoutMs) + "ms"
}

// Unwrap lets errors.Is see both the deadline and the run's own error.
func (e *RunTimeoutError) Unwrap() []error {
	if e.cause == nil {
		return []error{context.DeadlineExceeded}
	}
	return []error{context.DeadlineExceeded, e.cause}
}

// RunLimit* name what stopped an incomplete run (RunResult.Limit).
const (
	RunLimitMaxTurns = "maxTurns"
	RunLimitTimeout  = "timeout"
	// RunLimitError is core's own: the run failed (RunResult carries the
	// partial work, the error says why).
	RunLimitError = "error"
)

// timedOut turns a run that TimeoutMs ended into the port's shape. A run
// cut short while WaitFor waited keeps Pending and its resumable transcript
// (core's addition: RunWithAnswer can still finish it later).
func timedOut(res RunResult, timeoutMs int, cause error) (RunResult, error) {
	res.Status, res.Limit = StatusIncomplete, RunLimitTimeout
	return res, &RunTimeoutError{TimeoutMs: timeoutMs, cause: cause}
}
