//go:build js && wasm

package jsbridge

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"syscall/js"
)

// failure is an error that carries extra properties for the JS Error, such
// as the partial result of a failed run.
type failure struct {
	err   error
	props map[string]any
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// promise runs work on a new goroutine and returns a Promise of its result.
// A Go panic inside work rejects the Promise instead of ending the wasm
// instance, so the next call still works.
func promise(work func() (any, error)) js.Value {
	if hostReady {
		return hostPromise(work)
	}
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			v, err := safely(work)
			if err != nil {
				reject.Invoke(rejection(err))
				return
			}
			if _, err := safely(func() (any, error) { resolve.Invoke(v); return nil, nil }); err != nil {
				reject.Invoke(jsErrorValue(err))
			}
		}()
		return nil
	})
	p := jsPromise.New(executor)
	executor.Release() // the Promise constructor calls the executor synchronously
	return p
}

// rejection is the JS Error a failed call's Promise rejects with; a
// *failure's properties (such as a failed run's partial result) ride on it.
func rejection(err error) js.Value {
	e := jsErrorValue(err)
	if f, ok := err.(*failure); ok {
		for k, p := range f.props {
			e.Set(k, p)
		}
	}
	return e
}

func safely(work func() (any, error)) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			println("toolnexus: recovered panic:", fmt.Sprint(p), "\n"+string(debug.Stack()))
			err = fmt.Errorf("internal error (the runtime is still usable): %v", p)
		}
	}()
	return work()
}

// asyncMethod wraps fn as a JS function that returns a Promise.
func asyncMethod(fn func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		return promise(func() (any, error) { return fn(args) })
	})
}

// argAt returns args[i] or undefined.
func argAt(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

var lastDeferred atomic.Int32

// hostPromise is promise through the host: the Promise is made in JS
// (host.deferred) rather than by a js.FuncOf executor, which the Promise
// constructor calls back into Go at once — a nested resume per API call. A
// string result crosses as UTF-8 from Go's memory.
func hostPromise(work func() (any, error)) js.Value {
	id := lastDeferred.Add(1)
	p := host.Call("deferred", id)
	go func() {
		v, err := safely(work)
		if err != nil {
			host.Call("reject", id, rejection(err))
			return
		}
		if s, ok := v.(string); ok {
			host.Call("resolveText", id, stringPtr(s), len(s))
			runtime.KeepAlive(s)
			return
		}
		if _, err := safely(func() (any, error) { host.Call("resolve", id, v); return nil, nil }); err != nil {
			host.Call("reject", id, jsErrorValue(err))
		}
	}()
	return p
}
