//go:build js && wasm

package cfworker

import (
	"context"
	"errors"
	"strconv"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/jsbridge"
)

// jsRequest is one request on its way through the instance.
type jsRequest struct {
	id       int
	instance int  // the module's number for this Go instance
	drive    bool // a durable run's drive: the module holds its RunLog (runLog)
	// env and runLog are the module's, read when first needed (envValue,
	// runLogValue).
	env, runLog      js.Value
	envRead, logRead bool
	settings         *envSettings       // the env's snapshot (settings_js.go), shared: read only
	vars             map[string]string  // getenv's answers so far, without settings
	head             bool               // a HEAD request: the body is not sent
	cancel           context.CancelFunc // cancels the request's context
	resp             *jsResponse

	waiters  []chan struct{} // goroutines waiting in enter for a hop
	guards   int             // open guard contexts (guard)
	idle     chan struct{}   // closed when guards drops to 0 after the handler
	finished bool            // done: no JS call for this request any more
}

type requestKey struct{}

// requestOf returns the request ctx belongs to, or nil.
func requestOf(ctx context.Context) *jsRequest {
	q, _ := ctx.Value(requestKey{}).(*jsRequest)
	return q
}

var errRequestOver = errors.New("the request is over")

// enter returns when the running JS turn is q's: at once when it is, else
// after a hop (rq.hop, answered by api.wake in q's context). Go runs any
// ready goroutine whenever JS calls in, so a goroutine of q may be running
// in another request's turn: I/O it started there would belong to that
// request (and fail, or die with it). Every JS call that starts or touches
// I/O for q goes through enter first.
func (q *jsRequest) enter() error {
	if q.finished {
		return errRequestOver
	}
	if srv.currentID() == q.id {
		return nil
	}
	ch := make(chan struct{})
	q.waiters = append(q.waiters, ch)
	srv.hops++
	srv.js.Call("hop", q.id)
	hop := time.NewTimer(hopTimeout)
	select {
	case <-ch:
		hop.Stop()
	case <-hop.C:
		// A hop takes a turn of the event loop; one that never comes means
		// workerd has ended the request's context (it keeps it for
		// waitUntil's 30 s at most): nothing more can be done for it.
		println("toolnexus: request", q.id, "lost its context; giving it up")
		srv.over(q)
	}
	if q.finished {
		return errRequestOver
	}
	return nil
}

// hopTimeout bounds a hop into a request's context.
const hopTimeout = 10 * time.Second

// guard returns a context that ends when parent does, but only ever inside
// q's turn: a JS call made because it ended (a fetch's abort) then runs in
// q's context. release must be called when the operation is over.
func (q *jsRequest) guard(parent context.Context) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	q.guards++
	stop := context.AfterFunc(parent, func() {
		// Once the request is over no JS call may be made for it: ctx
		// then stays open, and what waits on it waits on JS alone.
		if q.enter() == nil {
			cancel()
		}
	})
	released := false
	return ctx, func() {
		if released {
			return
		}
		released = true
		stop()
		cancel()
		q.guards--
		if q.guards == 0 && q.idle != nil {
			close(q.idle)
			q.idle = nil
		}
	}
}

// getenv reads one of the request's env bindings as text: "" when unset;
// numbers and booleans are formatted, arrays and plain objects (JSON vars)
// are JSON text. The settings come from the env's snapshot; without one (a
// module that does not make it) a name is read from JS once per request.
func (q *jsRequest) getenv(name string) string {
	if q.settings != nil {
		return q.settings.vars[name]
	}
	if v, ok := q.vars[name]; ok {
		return v
	}
	s := ""
	if v, ok := q.binding(name); ok {
		switch v.Type() {
		case js.TypeString:
			s = v.String()
		case js.TypeNumber:
			s = strconv.FormatFloat(v.Float(), 'f', -1, 64)
		case js.TypeBoolean:
			s = strconv.FormatBool(v.Bool())
		case js.TypeObject:
			// A JSON var (wrangler.jsonc "vars" take arrays and objects, as
			// AGENTS and MCP_CONFIG may be) reads as its JSON text; a binding
			// (a KV namespace, a Durable Object) reads as unset.
			if plainJSON(v) {
				s = js.Global().Get("JSON").Call("stringify", v).String()
			}
		}
	}
	if q.vars == nil {
		q.vars = map[string]string{}
	}
	q.vars[name] = s
	return s
}

// plainJSON reports whether v is an array or a plain object (what a JSON
// var is), not an instance of a binding's class.
func plainJSON(v js.Value) bool {
	object := js.Global().Get("Object")
	if js.Global().Get("Array").Call("isArray", v).Bool() {
		return true
	}
	proto := object.Call("getPrototypeOf", v)
	return proto.IsNull() || proto.Equal(object.Get("prototype"))
}

// binding returns the env binding of that name, false when it is unset.
func (q *jsRequest) binding(name string) (js.Value, bool) {
	if q.settings != nil {
		if !q.settings.bindings[name] {
			return js.Undefined(), false
		}
		if v, ok := q.settings.values[name]; ok {
			return v, true
		}
	}
	env := q.envValue()
	if env.Type() != js.TypeObject {
		return js.Undefined(), false
	}
	v := env.Get(name)
	if q.settings != nil && !v.IsUndefined() && !v.IsNull() {
		q.settings.values[name] = v
	}
	return v, !v.IsUndefined() && !v.IsNull()
}

// envValue is the request's env (the module's), read from it once.
func (q *jsRequest) envValue() js.Value {
	if !q.envRead {
		q.env, q.envRead = srv.js.Call("env", q.id), true
	}
	return q.env
}

// runLogValue is the RunLog object whose executor the request is
// (undefined for any other request), read from the module once.
func (q *jsRequest) runLogValue() js.Value {
	if !q.logRead {
		q.runLog, q.logRead = js.Undefined(), true
		if q.drive {
			q.runLog = srv.js.Call("runLog", q.id)
		}
	}
	return q.runLog
}

// durableObject is boundObject for a Durable Object namespace: one with
// idFromName (checked once per env).
func (q *jsRequest) durableObject(name string) (js.Value, bool) {
	ns, ok := q.boundObject(name)
	if !ok {
		return ns, false
	}
	if q.settings != nil {
		key := name + "\x00do"
		if _, checked := q.settings.values[key]; checked {
			return ns, q.settings.values[key].Truthy()
		}
		is := ns.Get("idFromName").Type() == js.TypeFunction
		q.settings.values[key] = js.ValueOf(is)
		return ns, is
	}
	return ns, ns.Get("idFromName").Type() == js.TypeFunction
}

// objectStub returns the stub of the Durable Object named name in
// namespace ns. A stub is an I/O object: it is made in q's context.
func (q *jsRequest) objectStub(ns js.Value, name string) (js.Value, error) {
	if err := q.enter(); err != nil {
		return js.Undefined(), err
	}
	oid, err := jsbridge.CallMethod(ns, "idFromName", name)
	if err != nil {
		return js.Undefined(), err
	}
	return jsbridge.CallMethod(ns, "get", oid)
}

// boundObject is binding for a binding that must be an object (a KV
// namespace, an R2 bucket).
func (q *jsRequest) boundObject(name string) (js.Value, bool) {
	v, ok := q.binding(name)
	return v, ok && v.Type() == js.TypeObject
}
