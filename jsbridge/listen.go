//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
)

// errNoHost is Listen's error when the loader installed no host.
var errNoHost = errors.New("jsbridge: no host (web/bridge-host.mjs) to listen to")

// Listen waits for the next message the loader posts on channel ch
// (bridge-host.mjs post): its code and its two byte parts. It is how a
// Worker's requests reach Go (worker/cfworker): one settle of a host
// operation each, where a js.FuncOf callback made several crossings and a
// js.Value per argument, each a JS call in workerd's isolate.
func Listen(ctx context.Context, ch int) (code int, a, b []byte, err error) {
	if !hostReady {
		return 0, nil, nil, errNoHost
	}
	op := newHostOp()
	if err := op.start("listen", ch); err != nil {
		return 0, nil, nil, err
	}
	r, err := op.wait(ctx, func() { host.Call("unlisten", ch) })
	if err != nil {
		return 0, nil, nil, err
	}
	a, b = op.take(r)
	return int(r.code), a, b, nil
}

// Ptr is b's address in the wasm memory as a JS number (0 for an empty b),
// for a JS function that reads b before it returns; the caller keeps b
// alive until then (runtime.KeepAlive).
func Ptr(b []byte) int { return bytesPtr(b) }

// StringPtr is Ptr for a string's bytes.
func StringPtr(s string) int { return stringPtr(s) }
