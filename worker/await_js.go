//go:build js && wasm

package worker

import (
	"context"
	"fmt"
	"syscall/js"
)

// await waits for a JS Promise. Each outcome has its own cap-1 channel, so a
// callback never blocks the event loop, and whichever callback fires
// releases both. On ctx cancellation it returns at once; the caller aborts
// the underlying operation (which settles the Promise and so releases the
// callbacks).
func await(ctx context.Context, p js.Value) (js.Value, error) {
	ok := make(chan js.Value, 1)
	fail := make(chan error, 1)
	var onOk, onFail js.Func
	onOk = js.FuncOf(func(_ js.Value, args []js.Value) any {
		onOk.Release()
		onFail.Release()
		ok <- arg0(args)
		return nil
	})
	onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		onOk.Release()
		onFail.Release()
		fail <- jsError(arg0(args))
		return nil
	})
	p.Call("then", onOk, onFail)
	select {
	case v := <-ok:
		return v, nil
	case err := <-fail:
		return js.Undefined(), err
	case <-ctx.Done():
		return js.Undefined(), ctx.Err()
	}
}

func arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// jsError turns a thrown or rejected JS value into a Go error.
func jsError(v js.Value) error {
	if v.Type() == js.TypeObject {
		if msg := v.Get("message"); msg.Type() == js.TypeString {
			name := v.Get("name")
			if name.Type() == js.TypeString {
				return fmt.Errorf("%s: %s", name.String(), msg.String())
			}
			return fmt.Errorf("%s", msg.String())
		}
	}
	return fmt.Errorf("%s", js.Global().Call("String", v).String())
}

// catch runs fn, turning a JS exception (a panic with js.Error) into an
// error. Other panics propagate.
func catch(fn func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			jsErr, ok := p.(js.Error)
			if !ok {
				panic(p)
			}
			err = jsError(jsErr.Value)
		}
	}()
	fn()
	return nil
}
