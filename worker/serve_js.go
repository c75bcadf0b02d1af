//go:build js && wasm

package worker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/jsbridge"
)

// Serve is the Worker's request entry: it hands worker/js/worker.mjs (the
// Worker's main module) an API through globalThis.__toolnexusWorkerBoot
// and serves every request of the isolate with handler, concurrent ones
// included, for the life of the Go instance:
//
//	api.handle(rq)  serve one request; rq is the module's object for it:
//	                {id, instance, request, env, ctx, head} and the methods
//	                respond(status, headers, body), open(status, headers),
//	                push(chunk), end(message), hop(), done(); head is
//	                "id\ninstance\nmethod\nurl\nname\nvalue\n…"
//	api.wake(id)    runs in request id's context after rq.hop()
//	api.gone(id)    the client went away (request.signal, a cancelled stream)
//
// A request's env, ctx and abort reach its handler through its context
// (requestOf): nothing is global to "the current request". A panic in a
// request answers that request with a 500 and the instance goes on
// serving. A body the handler finishes without flushing goes out whole;
// after a Flush (or past streamAfter bytes) the response is a stream fed
// as the handler writes, so server-sent events reach the client as they
// are written.
func Serve(handler http.Handler) {
	boot := js.Global().Get("__toolnexusWorkerBoot")
	if boot.Type() != js.TypeFunction {
		println("toolnexus: load this wasm through worker.mjs (globalThis.__toolnexusWorkerBoot is missing)")
		return
	}
	srv.handler = handler
	api := js.Global().Get("Object").New()
	api.Set("handle", js.FuncOf(srv.handle))
	api.Set("wake", js.FuncOf(srv.wake))
	api.Set("gone", js.FuncOf(srv.gone))
	host := boot.Invoke(api)
	srv.current = host.Get("current")
	srv.stats = host.Get("stats")
	select {}
}

// streamAfter is how much of a body is kept before the response turns
// into a stream without a Flush.
const streamAfter = 64 << 10

// srv is the instance's one server.
var srv = &server{requests: map[int]*jsRequest{}, instanceID: newInstanceID()}

type server struct {
	handler  http.Handler
	current  js.Value // host.current(): the id of the request whose context runs now
	stats    js.Value // host.stats(): what the module holds for Go (GET /__test/instance)
	requests map[int]*jsRequest
	// instanceID, served and hops describe this Go instance (GET
	// /__test/instance).
	instanceID string
	served     int
	hops       int
}

func newInstanceID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// currentID is the id of the request whose handler context runs now, 0 when
// none (or outside the Worker's module).
func (s *server) currentID() int {
	if s.current.Type() != js.TypeFunction {
		return 0
	}
	return s.current.Invoke().Int()
}

// jsRequest is one request on its way through the instance.
type jsRequest struct {
	id       int
	instance int      // the module's number for this Go instance
	obj      js.Value // the module's rq object
	env      js.Value
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

func (s *server) handle(_ js.Value, args []js.Value) any {
	obj := args[0]
	// Read the request while its handler's context runs: the request line
	// and the headers come as one string (the module's head).
	f := strings.Split(obj.Get("head").String(), "\n")
	if len(f) < 4 {
		f = append(f, "0", "0", "GET", "/")[:4]
	}
	id, _ := strconv.Atoi(f[0])
	instance, _ := strconv.Atoi(f[1])
	q := &jsRequest{id: id, instance: instance, obj: obj, env: obj.Get("env"), head: f[2] == http.MethodHead}
	s.requests[q.id] = q
	header := http.Header{}
	for i := 4; i+1 < len(f); i += 2 {
		header.Add(f[i], f[i+1])
	}
	body := obj.Get("request").Get("body")
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), requestKey{}, q))
	q.cancel = cancel
	q.resp = &jsResponse{q: q, header: http.Header{}}
	go s.serve(ctx, q, f[2], f[3], header, body)
	return nil
}

func (s *server) wake(_ js.Value, args []js.Value) any {
	if q := s.requests[args[0].Int()]; q != nil {
		q.wakeAll()
	}
	return nil
}

func (q *jsRequest) wakeAll() {
	for _, ch := range q.waiters {
		close(ch)
	}
	q.waiters = nil
}

func (s *server) gone(_ js.Value, args []js.Value) any {
	if q := s.requests[args[0].Int()]; q != nil {
		q.resp.gone = true
		q.cancel()
	}
	return nil
}

// serve runs the handler for q and answers.
func (s *server) serve(ctx context.Context, q *jsRequest, method, url string, header http.Header, body js.Value) {
	w := q.resp
	s.served++
	defer s.finish(q, w)
	var rb io.ReadCloser = http.NoBody
	if body.Type() == js.TypeObject {
		rb = &requestBody{q: q, ctx: ctx, stream: body}
	}
	r, err := http.NewRequestWithContext(ctx, method, url, rb)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "the request cannot be read")
		return
	}
	r.Header = header
	if n, err := strconv.ParseInt(header.Get("Content-Length"), 10, 64); err == nil {
		r.ContentLength = n
	}
	r.RemoteAddr = header.Get("Cf-Connecting-Ip")
	defer func() {
		if p := recover(); p != nil {
			println("toolnexus: recovered panic in", method, r.URL.Path+":", fmt.Sprint(p), "\n"+string(debug.Stack()))
			w.fail()
		}
	}()
	if strings.HasPrefix(r.URL.Path, "/__test/") && q.getenv("TOOLNEXUS_TEST_HOOKS") == "1" {
		s.serveTest(w, r, q)
		return
	}
	s.handler.ServeHTTP(w, r)
}

// finish sends what the handler left unsent, cancels the request's
// context, waits (a few seconds at most) for its JS operations to let go,
// and tells the module the request is done.
func (s *server) finish(q *jsRequest, w *jsResponse) {
	w.close()
	q.cancel()
	if q.guards > 0 {
		q.idle = make(chan struct{})
		select {
		case <-q.idle:
		case <-time.After(5 * time.Second):
		}
	}
	if q.enter() == nil {
		s.over(q)
	}
}

// over ends q: no JS call is made for it any more, and the module lets its
// context go (rq.done).
func (s *server) over(q *jsRequest) {
	if q.finished {
		return
	}
	q.finished = true
	q.wakeAll()
	delete(s.requests, q.id)
	q.obj.Call("done")
}

// serveTest answers the test-only routes, on when TOOLNEXUS_TEST_HOOKS=1:
//
//	GET /__test/instance   {"instance", "goInstance", "served", "inFlight", "hops",
//	                        "js": {refs, requests, timers, memory}} (memory: the
//	                        wasm memory's bytes)
//	GET /__test/panic      a panic inside the request (answered 500)
//	GET /__test/exit       a panic outside any request: the instance dies
//	GET /__test/sleep?ms=N&id=X   answers {"slept": N, "id": "X"} after N ms
func (s *server) serveTest(w http.ResponseWriter, r *http.Request, q *jsRequest) {
	answer := func(body string) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}
	switch r.URL.Path {
	case "/__test/instance":
		stats := "{}"
		if s.stats.Type() == js.TypeFunction {
			stats = js.Global().Get("JSON").Call("stringify", s.stats.Invoke()).String()
		}
		answer(fmt.Sprintf(`{"instance":%d,"goInstance":%q,"served":%d,"inFlight":%d,"hops":%d,"js":%s}`,
			q.instance, s.instanceID, s.served, len(s.requests), s.hops, stats))
	case "/__test/panic":
		panic("test: a panicking request")
	case "/__test/exit":
		go func() { panic("test: the instance dies") }()
		time.Sleep(time.Second)
		answer(`{"status":"still alive"}`)
	case "/__test/sleep":
		var ms int
		var id string
		for _, kv := range strings.Split(r.URL.RawQuery, "&") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "ms":
				ms, _ = strconv.Atoi(v)
			case "id":
				id = v
			}
		}
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-r.Context().Done():
		}
		answer(fmt.Sprintf(`{"slept":%d,"id":%q}`, ms, id))
	default:
		w.WriteHeader(http.StatusNotFound)
		answer(`{"error":{"code":"not_found","message":"no such test route"}}`)
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

// jsResponse is the handler's http.ResponseWriter: it keeps the body until
// the handler returns (one Response with the whole body) or flushes (a
// Response whose body is a stream fed by each later write).
type jsResponse struct {
	q           *jsRequest
	header      http.Header
	status      int
	wroteHeader bool
	buf         []byte
	streaming   bool
	sent        bool // the module has the Response
	gone        bool // the client went away: writes fail
}

var errClientGone = errors.New("worker: the client went away")

func (w *jsResponse) Header() http.Header { return w.header }

func (w *jsResponse) WriteHeader(code int) {
	if w.wroteHeader || code < 100 || code > 999 {
		return
	}
	w.wroteHeader = true
	w.status = code
}

func (w *jsResponse) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if w.gone {
		return 0, errClientGone
	}
	if w.streaming {
		w.push(p)
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) > streamAfter {
		w.Flush()
	}
	return len(p), nil
}

// Flush sends the status and headers now and turns the body into a stream.
func (w *jsResponse) Flush() {
	if w.streaming || w.sent || w.gone {
		return
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if w.q.enter() != nil {
		w.gone = true
		return
	}
	w.q.obj.Call("open", w.status, headerText(w.header))
	w.streaming, w.sent = true, true
	if len(w.buf) > 0 {
		w.push(w.buf)
		w.buf = nil
	}
}

// push hands one chunk to the response stream. The stream is a plain JS
// ReadableStream the module made: enqueueing from any context is safe.
// When the stream is gone (the client left) the request is cancelled.
func (w *jsResponse) push(p []byte) {
	u8 := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(u8, p)
	if !w.q.obj.Call("push", u8).Truthy() {
		w.gone = true
		w.q.cancel()
	}
}

// close answers with the whole body, or ends the stream.
func (w *jsResponse) close() {
	if w.streaming {
		w.q.obj.Call("end", "")
		return
	}
	if w.sent || w.q.enter() != nil {
		return
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	body := js.Null()
	if len(w.buf) > 0 && !w.q.head {
		body = js.Global().Get("Uint8Array").New(len(w.buf))
		js.CopyBytesToJS(body, w.buf)
	}
	w.sent = true
	w.q.obj.Call("respond", w.status, headerText(w.header), body)
}

// fail answers a request whose handler panicked: a 500 when nothing was
// sent yet, else an error in the stream.
func (w *jsResponse) fail() {
	switch {
	case w.streaming:
		w.streaming = false
		w.q.obj.Call("end", "internal error")
	case !w.sent:
		w.header, w.buf, w.wroteHeader = http.Header{}, nil, false
		writeError(w, http.StatusInternalServerError, "internal", "internal error")
	}
}

// headerText encodes headers as "name\nvalue\n…" (worker.mjs headerList).
func headerText(h http.Header) string {
	var b strings.Builder
	for k, vs := range h {
		for _, v := range vs {
			b.WriteString(k)
			b.WriteByte('\n')
			if strings.ContainsAny(v, "\r\n") {
				v = strings.Map(func(r rune) rune {
					if r == '\r' || r == '\n' {
						return ' '
					}
					return r
				}, v)
			}
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
