//go:build js && wasm

package cfworker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/worker"
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
	q := &jsRequest{id: id, instance: instance, obj: obj, env: obj.Get("env"), runLog: obj.Get("runLog"), head: f[2] == http.MethodHead}
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
		worker.WriteError(w, http.StatusBadRequest, "bad_request", "the request cannot be read")
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
	if q.runLog.Type() == js.TypeObject && r.URL.Path == drivePath {
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
	q.obj.Call("done")
}
