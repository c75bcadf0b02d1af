//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"io"
	"syscall/js"
)

// The bridge's JS glue for other Go packages that talk to JavaScript (the
// Worker, package worker, which also uses FetchTransport): the same await,
// conversion of a JS throw to a Go error and stream reader the browser
// build uses, so that there is one copy of each.

// Await waits for v, a Promise or a plain value. A rejection is an error
// carrying the JS error's message; when ctx ends first it returns ctx's
// error. It must run on its own goroutine, never inside a js.FuncOf
// callback.
func Await(ctx context.Context, v js.Value) (js.Value, error) { return await(ctx, v) }

// Invoke calls fn; a synchronous throw comes back as an error.
func Invoke(fn js.Value, args ...any) (js.Value, error) { return call(fn, args...) }

// CallMethod calls v[name](args...) with v as this; a synchronous throw
// comes back as an error.
func CallMethod(v js.Value, name string, args ...any) (r js.Value, err error) {
	defer caught(&err)
	return v.Call(name, args...), nil
}

// Error turns a thrown or rejected JS value into a Go error.
func Error(v js.Value) error { return errors.New(messageOf(v)) }

// StreamReader reads the bytes of a ReadableStream as they arrive.
// Cancelling ctx ends a pending read with an error; Close cancels a stream
// that was not read to its end.
func StreamReader(ctx context.Context, stream js.Value) io.ReadCloser {
	return &streamBody{ctx: ctx, reader: stream.Call("getReader"), abort: func() {}}
}
