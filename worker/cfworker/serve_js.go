//go:build js && wasm

package cfworker

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall/js"
	"time"
	"unsafe"

	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/jsbridge"
	"github.com/toolnexus/wasm/worker"
)

// Serve is the Worker's request entry: it hands worker/js/worker.mjs (the
// Worker's main module) an API through globalThis.__toolnexusWorkerBoot
// and serves every request of the isolate with handler, concurrent ones
// included, for the life of the Go instance. The requests come through
// jsbridge's host (web/bridge-host.mjs): the module posts each on channel
// requestChannel as one message, code the request's id, part 0 its head
// ("instance\nsettings\nmethod\nurl\nflags\nname\nvalue\n…"; flags "d"
// marks a durable run's drive) and part 1 its body, read whole (up to the
// body limit and a byte more). Go answers through the module's server
// object with numbers only: ids, and a pointer and a length into Go's
// memory for each text or body:
//
//	respond(id, status, headers, body)  the whole answer
//	open(id, status, headers)           a streamed answer, which push(id,
//	                                    chunk) feeds and end(id, message)
//	                                    ends
//	hop(id)                             api.wake(id) in id's context
//	done(id)                            Go is finished with id
//	log(line)                           console.log (cfworker log_js.go)
//	settings(id), env(id), runLog(id)   what Go reads of a request when it
//	                                    needs it
//
// The module calls Go back with api.wake(id) after a hop and api.gone(id)
// when the client went away, and before every resume of Go it writes the
// id of the request whose context runs at api.current (an address in Go's
// memory). A crossing of the boundary is a JS call in workerd's isolate,
// several times dearer there than in Node: a request used to arrive as a
// js.FuncOf call with a js.Value per argument and one JS call per read of
// its head, env and body stream; now it is one message.
//
// A request's env, ctx and abort reach its handler through its context
// (requestOf): nothing is global to "the current request". A panic in a
// request answers that request with a 500 and the instance goes on
// serving. A body the handler finishes without flushing goes out whole;
// after a Flush (or past streamAfter bytes) the response is a stream fed
// as the handler writes, so server-sent events reach the client as they
// are written.
func Serve(handler httpx.Handler) {
	boot := js.Global().Get("__toolnexusWorkerBoot")
	if boot.Type() != js.TypeFunction {
		println("toolnexus: load this wasm through worker.mjs (globalThis.__toolnexusWorkerBoot is missing)")
		return
	}
	srv.handler = handler
	api := js.Global().Get("Object").New()
	api.Set("wake", js.FuncOf(srv.wake))
	api.Set("gone", js.FuncOf(srv.gone))
	api.Set("current", int(uintptr(unsafe.Pointer(&currentRequest))))
	api.Set("requests", requestChannel)
	srv.js = boot.Invoke(api)
	srv.stats = srv.js.Get("stats")
	srv.accept()
}

// requestChannel is the host channel the module posts requests on.
const requestChannel = 1

// currentRequest is the id of the request whose JS context runs now (0:
// none), written by the module before each resume of Go.
var currentRequest int32

// accept starts each request the module posts, for the instance's life.
func (s *server) accept() {
	for {
		id, head, body, err := jsbridge.Listen(context.Background(), requestChannel)
		if err != nil {
			println("toolnexus: no request can reach Go:", err.Error())
			return
		}
		s.start(id, string(head), body)
	}
}

// streamAfter is how much of a body is kept before the response turns
// into a stream without a Flush.
const streamAfter = 64 << 10

// srv is the instance's one server.
var srv = &server{requests: map[int]*jsRequest{}, settingsByVersion: map[string]*envSettings{},
	next: make(chan servedRequest, maxIdleServers)}

type server struct {
	handler  httpx.Handler
	js       js.Value // the module's server object (Serve)
	stats    js.Value // its stats(): what the module holds for Go (GET /__test/instance)
	requests map[int]*jsRequest
	// next hands a request to one of idleServers goroutines waiting for one
	// (dispatch).
	next        chan servedRequest
	idleServers int
	// settingsByVersion holds each env's settings by its version (settings_js.go).
	settingsByVersion map[string]*envSettings
	// instanceID (made on first use, in a request: Go may start in
	// the module's global scope, where workerd refuses random bytes),
	// served and hops describe this Go instance (GET /__test/instance).
	instanceID string
	served     int
	hops       int
}

// goInstanceID is a random name for this Go instance, made on first use.
func (s *server) goInstanceID() string {
	if s.instanceID == "" {
		var b [6]byte
		rand.Read(b[:])
		s.instanceID = hex.EncodeToString(b[:])
	}
	return s.instanceID
}

// currentID is the id of the request whose handler context runs now, 0 when
// none (or outside the Worker's module).
func (s *server) currentID() int { return int(atomic.LoadInt32(&currentRequest)) }

// start begins request id: head is the module's head, body its body.
func (s *server) start(id int, head string, body []byte) {
	f := strings.Split(head, "\n")
	if len(f) < 5 {
		f = append(f, "0", "0", "GET", "/", "")[:5]
	}
	instance, _ := strconv.Atoi(f[0])
	q := &jsRequest{id: id, instance: instance, drive: f[4] == "d", head: f[2] == httpx.MethodHead}
	q.settings = s.settings(f[1], id)
	s.requests[q.id] = q
	header := make(httpx.Header, (len(f)-5)/2)
	for i := 5; i+1 < len(f); i += 2 {
		header.Add(f[i], f[i+1])
	}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), requestKey{}, q))
	q.cancel = cancel
	q.resp = &jsResponse{q: q, header: httpx.Header{}}
	s.dispatch(servedRequest{ctx, q, f[2], f[3], header, body})
}

// servedRequest is what serve takes of one request.
type servedRequest struct {
	ctx         context.Context
	q           *jsRequest
	method, url string
	header      httpx.Header
	body        []byte
}

// maxIdleServers bounds the goroutines kept waiting for the next request.
const maxIdleServers = 4

// dispatch serves req on a goroutine that has served before, when one
// waits, or on a new one. A new goroutine's stack starts small and is
// copied each time it doubles, which took a sixth of Go's time per
// GET /healthz on workerd (perf: bench/PROFILE.md); a kept one has grown
// already.
func (s *server) dispatch(req servedRequest) {
	if s.idleServers > 0 {
		s.idleServers--
		s.next <- req // buffered for maxIdleServers: never blocks
		return
	}
	go s.serveLoop(req)
}

// serveLoop serves req, then waits for the next one while fewer than
// maxIdleServers goroutines wait. js/wasm runs one goroutine at a time, so
// idleServers needs no lock.
func (s *server) serveLoop(req servedRequest) {
	for {
		s.serve(req.ctx, req.q, req.method, req.url, req.header, req.body)
		if s.idleServers >= maxIdleServers {
			return
		}
		s.idleServers++
		req = <-s.next
	}
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
func (s *server) serve(ctx context.Context, q *jsRequest, method, url string, header httpx.Header, body []byte) {
	w := q.resp
	s.served++
	defer s.finish(q, w)
	var rb io.ReadCloser = httpx.NoBody
	if len(body) > 0 {
		rb = io.NopCloser(bytes.NewReader(body))
	}
	r, err := httpx.NewRequest(ctx, method, url, rb)
	if err != nil {
		worker.WriteError(w, httpx.StatusBadRequest, "bad_request", "the request cannot be read")
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
	if q.drive && r.URL.Path == drivePath {
		s.drive(ctx, q, w, header.Get("x-toolnexus-run"))
		return
	}
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
	s.js.Call("done", q.id)
}
