// Package once makes an answer single-use when a Go program resumes a
// halted run: RunWithAnswer records the pending request's id in a Store
// before the run goes on, and refuses a second answer to it (ErrAnswered)
// without running anything.
//
// Core keeps no record of answers: Client.RunWithAnswer given the same
// halted transcript and request twice runs an approved tool twice. That is
// right when the program itself holds the halt and resumes it once. A
// program needs a Store when an answer can arrive more than once: a person
// double-clicks Approve, a webhook or queue delivers the same answer again,
// a handler is retried after a timeout, or several processes share the
// halted runs. The Worker (its APPROVALS ledger) and the browser tab (the AI
// SDK transport) make answers single-use themselves; this is the same for
// Go. MemoryStore serves one process; DirStore, one file per answered
// request in a folder, serves the processes of one machine and survives
// restarts.
//
//	store, err := once.NewDirStore("/var/lib/shop/answers")
//	...
//	res, err := once.RunWithAnswer(ctx, store, client, tk, halted.Messages, *halted.Pending, answer)
//	if errors.Is(err, once.ErrAnswered) { /* answered before: nothing ran */ }
//
// The id is the pending request's, which core makes random (req_ and 64
// random bits); a tool that sets its own Request.ID must make it unique.
// The answer is spent before the run goes on, so a process that dies after
// that loses the answer rather than run the tool twice (at most once).
// RunWithAnswer works with a *core.Client and with the Go port's
// *toolnexus.Client alike.
package once

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolnexus/wasm/core"
)

// ErrAnswered is RunWithAnswer's error for a request answered before.
// errors.Is also finds core.ErrCannotResume in it: nothing ran.
var ErrAnswered = fmt.Errorf("%w: this request was already answered", core.ErrCannotResume)

// Store records which requests were answered.
type Store interface {
	// Spend marks request id answered. It reports false when id was
	// already marked. It must be atomic: of concurrent calls with one id,
	// exactly one reports true.
	Spend(ctx context.Context, id string) (fresh bool, err error)
}

// Resumer is a client that resumes a halted run with its toolkit T: a
// *core.Client (T is *core.Toolkit) or a *toolnexus.Client (T is
// *toolnexus.Toolkit).
type Resumer[T any] interface {
	RunWithAnswer(ctx context.Context, tk T, history []any, pending core.Request, answer core.Answer) (core.RunResult, error)
}

// RunWithAnswer is c.RunWithAnswer for an answer that may be used once: it
// spends pending.ID in s first, and a request spent before is ErrAnswered,
// with the halted run's transcript in the result and nothing run. An
// answer that does not echo pending.ID is refused before s is asked, so it
// spends nothing. A failing store is an error, and nothing runs.
func RunWithAnswer[T any](ctx context.Context, s Store, c Resumer[T], tk T, history []any, pending core.Request, answer core.Answer) (core.RunResult, error) {
	refused := core.RunResult{Status: core.StatusIncomplete, Limit: "error", Messages: history, Pending: &pending}
	if answer.ID != pending.ID {
		return refused, fmt.Errorf("%w: answer id %q does not echo the pending request id %q", core.ErrCannotResume, answer.ID, pending.ID)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	fresh, err := s.Spend(ctx, pending.ID)
	if err != nil {
		return refused, fmt.Errorf("once: recording the answer to %s: %w", pending.ID, err)
	}
	if !fresh {
		return refused, ErrAnswered
	}
	return c.RunWithAnswer(ctx, tk, history, pending, answer)
}

// errNoID refuses an empty id: every answer would share it.
var errNoID = errors.New("once: the request has no id")
