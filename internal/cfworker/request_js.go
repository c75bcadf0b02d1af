//go:build js && wasm

package cfworker

import (
	"context"
	"errors"
	"io"
	"strconv"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/jsbridge"
)

// jsRequest is one request on its way through the instance.
type jsRequest struct {
	id       int
	instance int      // the module's number for this Go instance
	obj      js.Value // the module's rq object
	env      js.Value
	runLog   js.Value           // the RunLog object whose executor this request is (else undefined)
	vars     map[string]string  // getenv's answers so far
	head     bool               // a HEAD request: the body is not sent
	cancel   context.CancelFunc // cancels the request's context
	resp     *jsResponse

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
	q.obj.Call("hop")
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
// are JSON text. A name is read from JS once per request.
func (q *jsRequest) getenv(name string) string {
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
	if q.env.Type() != js.TypeObject {
		return js.Undefined(), false
	}
	v := q.env.Get(name)
	return v, !v.IsUndefined() && !v.IsNull()
}

// boundObject is binding for a binding that must be an object (a KV
// namespace, an R2 bucket).
func (q *jsRequest) boundObject(name string) (js.Value, bool) {
	v, ok := q.binding(name)
	return v, ok && v.Type() == js.TypeObject
}

// requestBody reads the request's body stream, each read in the request's
// context.
type requestBody struct {
	q      *jsRequest
	ctx    context.Context
	stream js.Value
	r      io.ReadCloser
}

func (b *requestBody) Read(p []byte) (int, error) {
	if err := b.q.enter(); err != nil {
		return 0, err
	}
	if b.r == nil {
		b.r = jsbridge.StreamReader(b.ctx, b.stream)
	}
	return b.r.Read(p)
}

func (b *requestBody) Close() error {
	if b.r == nil || b.q.enter() != nil {
		return nil
	}
	return b.r.Close()
}
