//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/toolnexus/wasm/core"
)

// WaitFor adapts a JS function (request) => Answer | Promise<Answer> to
// core's WaitFor. A throw or a rejection comes back as an error, which the
// loop turns into a decline carrying the message: a broken dialog never
// hangs the run or approves anything.
func WaitFor(fn js.Value) func(core.Request) (core.Answer, error) {
	return func(req core.Request) (core.Answer, error) {
		p, err := call(fn, toJS(req))
		if err != nil {
			return core.Answer{}, err
		}
		v, err := await(context.Background(), p)
		if err != nil {
			return core.Answer{}, err
		}
		if v.Type() != js.TypeObject {
			return core.Answer{}, errors.New("waitFor resolved without an answer object")
		}
		var ans core.Answer
		if err := fromJS(v, &ans); err != nil {
			return core.Answer{}, fmt.Errorf("waitFor answer: %w", err)
		}
		return ans, nil
	}
}
