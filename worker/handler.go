package worker

import (
	"context"
	"log"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
)

// Options wires the handler to its platform. The zero value runs natively:
// os.Getenv, core's default (net/http) transport, DefaultTools and an
// in-memory approval ledger. On Workers, cfworker.Options (worker/cfworker) supplies the fetch
// transport, the Worker environment and the APPROVALS ledger.
type Options struct {
	// Getenv reads one setting; "" means unset. Read on every request, so a
	// changed secret applies without a restart.
	Getenv func(name string) string
	// Transport carries every outbound request of the model loop. Nil means
	// core's default, which exists only natively.
	Transport core.Transport
	// Tools builds the tool set for one request. Nil means DefaultTools.
	Tools func(env ToolEnv) []core.Tool
	// Spent returns the store that makes a state token single-use (see
	// SpentStore), or nil when none is bound: /v1/resume is then refused
	// (503 approvals_unavailable). Nil means one MemorySpentStore for the
	// handler's life, right for a single native process.
	Spent func() SpentStore
	// Trees returns the store of halted agent teams (TreeStore), or nil
	// when none is bound: /v1/run with "agent" is then refused (503). Nil
	// means one MemoryTreeStore for the handler's life.
	Trees func() TreeStore
	// Runs returns the store of durable runs (RunStore, worker/runs), or nil
	// when none is bound: /v1/runs is then refused (503). Nil means one
	// MemoryRunStore for the handler's life.
	Runs func() RunStore
	// Conversations returns the KV namespace that keeps the transcripts of
	// the "conversation" field of /v1/run, or nil when none is bound (the
	// field is then refused with 400).
	Conversations func() KVNamespace
	// Files returns the store of the built-ins' file system (files.go), or
	// nil when none is bound (the file tools are then unavailable).
	Files func() BlobStore
	// Mailbox returns where a client's answer to an MCP elicitation waits
	// for the tools/call that asked (mcpmailbox.go). Nil means the
	// process's memory natively; on Workers cfworker.Options binds the
	// isolate's memory and STATE_KV.
	Mailbox func() Mailbox
	// Match compiles grep patterns for the built-in grep tool. Nil means
	// core's default (literal text where the build has no regexp).
	Match core.Matcher
	// Now is the clock for sealing and expiry. Nil means time.Now.
	Now func() time.Time
	// Logf writes one log line. Nil means log.Printf. Lines never contain
	// keys, secrets, prompts or transcripts.
	Logf func(format string, args ...any)
	// Bind, when set, returns the options one request runs with, from the
	// request's context: on Workers the environment, the outbound fetch and
	// the bindings belong to the request (worker/cfworker/serve_js.go), so Getenv,
	// Transport and the stores are bound per request.
	Bind func(ctx context.Context, o Options) Options
}

// Handler serves the Worker HTTP API. See the package documentation.
type Handler struct {
	opts    Options
	metrics *metrics
	// coreMetrics counts what the core clients of every request this
	// instance served reported through OnMetric.
	coreMetrics *core.MetricsRegistry
	routes      map[string]Route
	// teams runs agent teams (SetTeams); nil without worker/teams.
	teams TeamRunner
	// runExecutor runs durable runs (SetRunExecutor); nil without
	// worker/runs.
	runExecutor func(h *Handler, ctx context.Context, id string) (again bool)
	// configLogged makes the configuration's problems logged once (a
	// pointer: the Handler bound to a request is a copy).
	configLogged *sync.Once
	// runLine, in the copy ServeHTTP makes for a request, is where
	// FinishRun leaves the run's outcome for the request's log line; nil
	// outside a request (a durable run's executor), where it logs its own.
	runLine *string
	// builds keeps the toolkit and clients every request of a
	// configuration shares (cache.go; a pointer, as configLogged).
	builds *builds
}

type routeFunc func(h *Handler, w httpx.ResponseWriter, r *httpx.Request)

// NewHandler returns the API handler, with the routes of each product
// mounted (mcpserver.Mount, …): what a build serves, and links, follows
// what its main passes here.
func NewHandler(opts Options, products ...func(*Handler)) *Handler {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Tools == nil {
		opts.Tools = DefaultTools
	}
	if opts.Spent == nil {
		spent := NewMemorySpentStore()
		opts.Spent = func() SpentStore { return spent }
	}
	if opts.Trees == nil {
		trees := NewMemoryTreeStore()
		opts.Trees = func() TreeStore { return trees }
	}
	if opts.Runs == nil {
		runs := NewMemoryRunStore()
		opts.Runs = func() RunStore { return runs }
	}
	if opts.Conversations == nil {
		opts.Conversations = func() KVNamespace { return nil }
	}
	if opts.Files == nil {
		opts.Files = func() BlobStore { return nil }
	}
	if opts.Mailbox == nil {
		opts.Mailbox = defaultMailbox
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logf == nil {
		opts.Logf = log.Printf
	}
	h := &Handler{opts: opts, metrics: newMetrics(), coreMetrics: core.NewMetricsRegistry(), configLogged: new(sync.Once), builds: new(builds)}
	h.routes = map[string]Route{
		"/healthz":   {Name: "healthz", Get: (*Handler).serveHealth, Allow: "GET, HEAD, OPTIONS"},
		"/readyz":    {Name: "readyz", Get: (*Handler).serveReady, Allow: "GET, HEAD, OPTIONS"},
		"/metrics":   {Name: "metrics", Get: (*Handler).serveMetrics, Allow: "GET, HEAD, OPTIONS"},
		"/v1/tools":  {Name: "tools", Get: (*Handler).serveTools, Allow: "GET, HEAD, OPTIONS", API: true},
		"/v1/run":    {Name: "run", Post: (*Handler).ServeRun, Allow: "POST, OPTIONS", API: true, JSON: true},
		"/v1/resume": {Name: "resume", Post: (*Handler).ServeResume, Allow: "POST, OPTIONS", API: true, JSON: true},
	}
	for _, mount := range products {
		mount(h)
	}
	return h
}

// Route is one path: its handlers by method (nil: not allowed), whether it
// is under /v1 (and so behind API_TOKEN), whether its POST body must be
// JSON (415 otherwise), and the Allow header value. The handlers are method
// expressions, or a product's functions (Handle), so that they run on the
// Handler bound to the request (Options.Bind).
type Route struct {
	Name              string
	Get, Post, Delete func(h *Handler, w httpx.ResponseWriter, r *httpx.Request)
	Allow             string
	API, JSON         bool
}

// Handle adds a product's route at path. The handlers get the Handler bound
// to the request (Options.Bind).
func (h *Handler) Handle(path string, rt Route) {
	h.routes[path] = rt
}

// Options returns the options the handler runs with (bound to the request
// in a route's handler); a product reads them, never changes them.
func (h *Handler) Options() *Options { return &h.opts }

// ServeHTTP checks origin, route, method, bearer token and a JSON route's
// Content-Type in that order, then limits the body and dispatches.
//
// Each request logs one line, "worker: <method> <route> <status>
// <duration>", which names the run's outcome when the request ran one
// (FinishRun: " status=done turns=2 toolCalls=1").
func (h *Handler) ServeHTTP(w httpx.ResponseWriter, r *httpx.Request) {
	bound := *h // the request's own: its options (Bind) and its log line's run
	if h.opts.Bind != nil {
		bound.opts = h.opts.Bind(r.Context(), h.opts)
	}
	var run string
	bound.runLine = &run
	h = &bound
	start := h.opts.Now()
	h.logConfigOnce()
	rt, known := h.routes[routeKey(r.URL.Path)]
	name := rt.Name
	if !known {
		name = "unknown"
	}
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		h.metrics.request(name, sw.code())
		// Composed without fmt, and handed on whole ("%s"): a Logf may then
		// skip formatting (cfworker's does), and fmt's code is not compiled
		// on a fresh isolate's first request for it.
		line := "worker: " + r.Method + " " + name + " " + strconv.Itoa(sw.code()) + " " + h.opts.Now().Sub(start).Round(time.Millisecond).String() + run
		h.opts.Logf("%s", line)
	}()
	access := LoadAccess(h.opts.Getenv)
	if !access.applyCORS(sw, r) {
		return
	}
	if !known {
		writeError(sw, httpx.StatusNotFound, "not_found", "no route "+QuoteClip(r.URL.Path)+"; try POST /v1/run, POST /v1/resume, POST /v1/runs, POST /v1/chat/completions, POST /v1/ui, GET /v1/models, GET /v1/tools, GET /metrics, GET /healthz or GET /readyz")
		return
	}
	if r.Method == httpx.MethodOptions {
		preflight(sw, r, rt.Allow)
		return
	}
	var serve routeFunc
	switch r.Method {
	case httpx.MethodGet, httpx.MethodHead:
		serve = rt.Get
	case httpx.MethodPost:
		serve = rt.Post
	case httpx.MethodDelete:
		serve = rt.Delete
	}
	if serve == nil {
		sw.Header().Set("Allow", rt.Allow)
		writeError(sw, httpx.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed on "+r.URL.Path+"; use "+rt.Allow)
		return
	}
	if rt.API && !access.authorized(r) {
		sw.Header().Set("WWW-Authenticate", `Bearer realm="toolnexus"`)
		writeError(sw, httpx.StatusUnauthorized, "unauthorized", "a valid bearer token is required (Authorization: Bearer <API_TOKEN>)")
		return
	}
	if rt.JSON && r.Method == httpx.MethodPost && !jsonContentType(r.Header.Get("Content-Type")) {
		unsupportedMediaType(sw, r.Header.Get("Content-Type"))
		return
	}
	if r.Body != nil && r.Method == httpx.MethodPost {
		limit, err := MaxBody(h.opts.Getenv)
		if err != nil {
			h.WriteConfigError(sw, err)
			return
		}
		r.Body = httpx.MaxBytesReader(sw, r.Body, limit)
	}
	serve(h, sw, r)
}

// statusWriter records the status code a handler wrote.
type statusWriter struct {
	httpx.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = httpx.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (to
// flush a stream natively).
func (s *statusWriter) Unwrap() httpx.ResponseWriter { return s.ResponseWriter }

// Flush lets the MCP event stream reach the client as it is written (the
// Workers response writer streams anyway; net/http needs the flush).
func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(httpx.Flusher); ok {
		f.Flush()
	}
}

func (s *statusWriter) code() int {
	if s.status == 0 {
		return httpx.StatusOK
	}
	return s.status
}

// WriteConfigError answers missing or invalid settings with 500 naming every
// one of them ("problems": [{setting, problem}]), never a value.
func (h *Handler) WriteConfigError(w httpx.ResponseWriter, err error) {
	h.opts.Logf("worker: configuration: %v", err)
	writeJSON(w, httpx.StatusInternalServerError, ErrorBody{Error: APIError{Code: "config", Message: "worker misconfigured: " + err.Error(), Problems: problemList(err)}})
}

// serveHealth is liveness: the Worker answers. "ready" says whether it can
// also serve a run and a resume; GET /readyz says what is missing.
//
// Its two answers are written as they are: a health check comes often, and
// encoding a map took more of its work than the check.
func (h *Handler) serveHealth(w httpx.ResponseWriter, r *httpx.Request) {
	if h.readiness().Status == "ready" {
		writeRaw(w, httpx.StatusOK, healthReady)
	} else {
		writeRaw(w, httpx.StatusOK, healthNotReady)
	}
}

var (
	healthReady    = []byte(`{"ready":true,"status":"ok"}` + "\n")
	healthNotReady = []byte(`{"ready":false,"status":"ok"}` + "\n")
)

func (h *Handler) serveMetrics(w httpx.ResponseWriter, r *httpx.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	h.metrics.writeTo(w)
	h.coreMetrics.WriteText(w)
}
