//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"syscall/js"

	"github.com/toolnexus/wasm/core"
)

// WaitFor adapts a JS function (request, {signal}) => Answer |
// Promise<Answer> to core's WaitForContext. The signal aborts when the run is
// cancelled, so a dialog can close itself. A throw or a rejection comes back
// as an error, which the loop turns into a decline carrying the message: a
// broken dialog never hangs the run or approves anything. {later: true} in
// place of an Answer halts a journaled run on the request (haltLater).
func WaitFor(fn js.Value) func(context.Context, core.Request) (core.Answer, error) {
	return func(ctx context.Context, req core.Request) (core.Answer, error) {
		opts := jsObject.New()
		if !abortControllerMissing {
			ctrl := jsAbortController.New()
			opts.Set("signal", ctrl.Get("signal"))
			stop := context.AfterFunc(ctx, func() { ctrl.Call("abort") })
			defer stop()
		}
		p, err := call(fn, toJS(req), opts)
		if err != nil {
			return core.Answer{}, err
		}
		v, err := await(ctx, p)
		if err != nil {
			return core.Answer{}, err
		}
		if v.Type() != js.TypeObject {
			return core.Answer{}, errors.New("waitFor resolved without an answer object")
		}
		if v.Get("later").Truthy() {
			// Not an answer: the person left the request for later. A
			// journaled run halts on it (client_journal.go); any other run
			// cannot keep it open, and the loop reads the error as a decline.
			if haltLater(ctx) {
				return core.Answer{}, context.Canceled
			}
			return core.Answer{}, errors.New("waitFor left the request for later, which only a journaled run can keep")
		}
		var ans core.Answer
		if err := fromJS(v, &ans); err != nil {
			return core.Answer{}, fmt.Errorf("waitFor answer: %w", err)
		}
		return ans, nil
	}
}
