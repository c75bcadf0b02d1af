//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"syscall/js"
	"unsafe"
)

// The narrow boundary: when the loader installed web/bridge-host.mjs as
// globalThis.__toolnexusHost, the hot paths (a model call, a streamed chunk,
// a JS tool call) cross with numbers only — pointers and lengths into the
// wasm memory — and JS hands outcomes back through the wasm export
// toolnexus_settle instead of a js.FuncOf pair per Promise. No js.Value is
// made per call, so there is nothing to finalize. Without a host (Go's own
// test runner, a loader of its own) the syscall/js paths are used.
var (
	host      = js.Global().Get("__toolnexusHost")
	hostReady = host.Type() == js.TypeObject && isFunc(host.Get("take"))
)

// hostReply is an operation's outcome: a code and the lengths of its two
// byte parts (len1 -1: the body is a stream).
type hostReply struct{ code, len0, len1 int32 }

var (
	waitersMu  sync.Mutex
	waiters    = map[int32]chan hostReply{}
	lastWaiter int32
)

// toolnexus_settle is called by the host when an operation ends after its
// call returned; it reports whether Go still waits for it. It runs while the
// Go scheduler is paused, so it must not block or allocate: a map lookup and
// a send on a buffered channel. The host then resumes the scheduler.
//
//go:wasmexport toolnexus_settle
func settle(id, code, len0, len1 int32) int32 {
	waitersMu.Lock()
	ch, ok := waiters[id]
	delete(waiters, id)
	waitersMu.Unlock()
	if !ok {
		return 0
	}
	ch <- hostReply{code, len0, len1}
	return 1
}

// hostOp is one operation in flight: its id, the reply block the host fills
// when it answers within the call, and the channel toolnexus_settle uses.
type hostOp struct {
	id    int32
	reply [4]int32 // ready, code, len0, len1
	ch    chan hostReply
}

func newHostOp() *hostOp {
	op := &hostOp{ch: make(chan hostReply, 1)}
	waitersMu.Lock()
	lastWaiter++
	if lastWaiter <= 0 {
		lastWaiter = 1
	}
	op.id = lastWaiter
	waiters[op.id] = op.ch
	waitersMu.Unlock()
	return op
}

func (op *hostOp) forget() {
	waitersMu.Lock()
	delete(waiters, op.id)
	waitersMu.Unlock()
}

// start calls host[method](id, replyPtr, args...). A throw there is a bug
// in bridge-host.mjs; it is reported as an error, not a panic.
func (op *hostOp) start(method string, args ...any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			op.forget()
			err = errors.New("toolnexus host: " + method + " threw")
		}
	}()
	all := make([]any, 0, 2+len(args))
	all = append(all, op.id, ptr(unsafe.Pointer(&op.reply[0])))
	host.Call(method, append(all, args...)...)
	return nil
}

// wait returns the outcome: at once when the host answered within the call,
// else when it settles or ctx ends (then onCancel runs, e.g. to abort).
func (op *hostOp) wait(ctx context.Context, onCancel func()) (hostReply, error) {
	if op.reply[0] != 0 {
		op.forget()
		return hostReply{op.reply[1], op.reply[2], op.reply[3]}, nil
	}
	select {
	case r := <-op.ch:
		return r, nil
	case <-ctx.Done():
		op.forget()
		if onCancel != nil {
			onCancel()
		}
		return hostReply{}, ctx.Err()
	}
}

// take copies the outcome's parts into new Go buffers.
func (op *hostOp) take(r hostReply) (a, b []byte) {
	a = make([]byte, max(r.len0, 0))
	b = make([]byte, max(r.len1, 0))
	if len(a)+len(b) == 0 {
		host.Call("take", op.id, 0, 0) // drops what the host holds
		return a, b
	}
	host.Call("take", op.id, bytesPtr(a), bytesPtr(b))
	return a, b
}

// ptr and bytesPtr pass an address into the wasm memory as a JS number. The
// host reads or writes it before the call returns; the caller keeps the
// memory alive until then (it is a parameter or local of that caller).
func ptr(p unsafe.Pointer) int { return int(uintptr(p)) }

func bytesPtr(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return ptr(unsafe.Pointer(&b[0]))
}

func stringPtr(s string) int {
	if len(s) == 0 {
		return 0
	}
	return ptr(unsafe.Pointer(unsafe.StringData(s)))
}

// hostSlot is fn's slot in the host. Fetch functions and tools are
// registered once, when the transport or the tool is made; the slot is
// released when the Go side that uses it is garbage-collected.
type hostSlot struct{ n int }

func register(fn js.Value, name string) *hostSlot {
	s := &hostSlot{host.Call("register", fn, name).Int()}
	runtime.SetFinalizer(s, func(s *hostSlot) { host.Call("release", s.n) })
	return s
}

// stringBytes returns a JS string's UTF-8 bytes. Through the host they are
// encoded straight into Go's buffer; syscall/js's String() has JS allocate
// an ArrayBuffer and copy it (hundreds of µs for a long history).
func stringBytes(v js.Value) []byte {
	if !hostReady {
		return []byte(v.String())
	}
	size := 4096
	for range 3 { // 4 kB, then the UTF-16 length, then 3 bytes per unit
		buf := make([]byte, size)
		w := host.Call("text", v, bytesPtr(buf), size).Int()
		if w >= 0 {
			return buf[:w]
		}
		size = -1 - w
	}
	return []byte(v.String())
}
