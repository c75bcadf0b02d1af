package worker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Durable runs (issue 24): POST /v1/runs starts a run whose state, event
// log and halted transcript live in a RunStore (the RunLog Durable Object
// on Workers) instead of with the caller. The run itself is /v1/run's own
// streamed run (serveRun with "stream": true) written into a runSink,
// which logs each event in the store; a halt keeps the sealed state token
// in the store (it never leaves the Worker) and publishes a signed
// approval link (runs_link.go) whose answer resumes the run through
// /v1/resume's own code, so every check of /v1/resume (the APPROVALS
// ledger, edited arguments against the schema, agent teams' trees)
// applies unchanged.

// Route keys of the run routes with an id in their path (routeKey).
const (
	runStateRoute  = "/v1/runs/{id}"
	runEventsRoute = "/v1/runs/{id}/events"
)

// runsRouteKey maps /v1/runs/<id> and /v1/runs/<id>/events to their
// route keys.
func runsRouteKey(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/v1/runs/")
	if !ok || rest == "" {
		return "", false
	}
	if id, ok := strings.CutSuffix(rest, "/events"); ok && id != "" && !strings.Contains(id, "/") {
		return runEventsRoute, true
	}
	if !strings.Contains(rest, "/") {
		return runStateRoute, true
	}
	return "", false
}

// runIDOf returns the run id of a run route's path, "" when it is not a
// well-formed id (run_ and 32 hex digits).
func runIDOf(path string) string {
	id := strings.TrimSuffix(strings.TrimPrefix(path, "/v1/runs/"), "/events")
	if len(id) != 36 || !strings.HasPrefix(id, "run_") {
		return ""
	}
	if _, err := hex.DecodeString(id[4:]); err != nil {
		return ""
	}
	return id
}

func newRunID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("run id: %w", err)
	}
	return "run_" + hex.EncodeToString(b[:]), nil
}

// runsStore returns the run store, answering 503 when none is bound.
func (h *Handler) runsStore(w http.ResponseWriter) (RunStore, bool) {
	var s RunStore
	if h.opts.Runs != nil {
		s = h.opts.Runs()
	}
	if s == nil {
		writeError(w, http.StatusServiceUnavailable, "runs_unavailable", "this Worker has no "+RunsBinding+" Durable Object binding, which keeps durable runs; nothing ran. Use POST /v1/run, or deploy with the generated wrangler.jsonc")
		return nil, false
	}
	return s, true
}

// serveRunsStart is POST /v1/runs: the body of /v1/run. It answers 202
// {"id", "status": "running", "events"} as soon as the run has started;
// a body or setting /v1/run refuses is refused the same way.
func (h *Handler) serveRunsStart(w http.ResponseWriter, r *http.Request) {
	cfg, req, ok := BeginJSON(h, w, r, decodeRunRequest)
	if !ok {
		return
	}
	store, ok := h.runsStore(w)
	if !ok {
		return
	}
	if req.Conversation != "" {
		writeError(w, http.StatusBadRequest, "unsupported_field", `"conversation" cannot be combined with a durable run: the run keeps its own transcript`)
		return
	}
	id, err := newRunID()
	if err != nil {
		h.internalError(w, err)
		return
	}
	ctx := context.WithoutCancel(r.Context())
	ttl := approvalTTL(h.opts.Getenv)
	if err := store.Create(ctx, id, []byte(`{"status":"running"}`), h.opts.Now().Add(2*ttl+24*time.Hour)); err != nil {
		h.opts.Logf("worker: run store: %v", err)
		writeError(w, http.StatusServiceUnavailable, "run_store", "could not record the run; nothing ran")
		return
	}
	req.Stream = true
	body, err := marshalJSON(req)
	if err != nil {
		h.internalError(w, err)
		return
	}
	sink := h.newRunSink(ctx, cfg, store, id, originOf(r))
	sink.starts = true
	h.driveRun(w, r, sink, "/v1/run", body, (*Handler).serveRun, func(w http.ResponseWriter) {
		writeJSON(w, http.StatusAccepted, map[string]string{"id": id, "status": "running", "events": "/v1/runs/" + id + "/events"})
	})
}

// serveRunState is GET /v1/runs/{id}: {"status": "running"|"pending"|
// "done"|"error", "text"?, "pending"?: {"id", "tool", "args", "path"?,
// "approveURL", "expiresAt", "request"}, "error"?}.
func (h *Handler) serveRunState(w http.ResponseWriter, r *http.Request) {
	store, ok := h.runsStore(w)
	if !ok {
		return
	}
	id := runIDOf(r.URL.Path)
	rec, found, err := h.getRun(r.Context(), store, id, "")
	if err != nil {
		h.opts.Logf("worker: run store: %v", err)
		writeError(w, http.StatusServiceUnavailable, "run_store", "could not read the run; retry")
		return
	}
	if !found {
		writeError(w, http.StatusNotFound, "not_found", "no run "+QuoteClip(r.URL.Path[len("/v1/runs/"):]))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(rec.Public)
}

// getRun is store.Get for a well-formed id; a malformed one is no run.
func (h *Handler) getRun(ctx context.Context, store RunStore, id, req string) (RunRecord, bool, error) {
	if id == "" {
		return RunRecord{}, false, nil
	}
	return store.Get(ctx, id, req)
}

// runEventsWait is how long one read of the event log waits for news
// before the stream sends a keep-alive comment.
const runEventsWait = 20 * time.Second

// serveRunEvents is GET /v1/runs/{id}/events: the run's events from the
// beginning (or after Last-Event-ID), each with its "id:", live until its
// done or error event.
func (h *Handler) serveRunEvents(w http.ResponseWriter, r *http.Request) {
	store, ok := h.runsStore(w)
	if !ok {
		return
	}
	id := runIDOf(r.URL.Path)
	if _, found, err := h.getRun(r.Context(), store, id, ""); err != nil || !found {
		if err != nil {
			h.opts.Logf("worker: run store: %v", err)
			writeError(w, http.StatusServiceUnavailable, "run_store", "could not read the run; retry")
			return
		}
		writeError(w, http.StatusNotFound, "not_found", "no run "+QuoteClip(strings.TrimSuffix(r.URL.Path[len("/v1/runs/"):], "/events")))
		return
	}
	after := 0
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, "invalid_field", "Last-Event-ID must be the id of an event of this run")
			return
		}
		after = n
	}
	sse := newSSEWriter(w)
	if sse.Comment("toolnexus run "+id) != nil {
		return
	}
	for {
		events, ended, err := store.Events(r.Context(), id, after, runEventsWait)
		if err != nil {
			if r.Context().Err() == nil {
				h.opts.Logf("worker: run store: %v", err)
			}
			return
		}
		for _, e := range events {
			b := make([]byte, 0, len(e.Data)+len(e.Type)+32)
			b = append(b, "id: "...)
			b = strconv.AppendInt(b, int64(e.Seq), 10)
			b = append(b, "\nevent: "...)
			b = append(b, e.Type...)
			b = append(b, "\ndata: "...)
			b = append(b, e.Data...)
			b = append(b, "\n\n"...)
			if sse.write(b) != nil {
				return
			}
			after = e.Seq
			if e.Type == "done" || e.Type == "error" {
				return
			}
		}
		if len(events) == 0 {
			if ended || sse.Comment("waiting") != nil {
				return
			}
		}
	}
}

// originOf is the scheme and host the request reached the Worker at.
func originOf(r *http.Request) string {
	if r.URL.IsAbs() {
		return r.URL.Scheme + "://" + r.URL.Host
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// driveRun serves a synthetic POST of body on path with serve into sink,
// on a context the caller's leaving does not cancel. When the route
// answered plainly (an error before the run started) its answer is the
// caller's; once it streams, accepted answers the caller and the run goes
// on: on Workers the response is sent now (detach) and the request lives
// until the run has halted or ended; natively the run goes on in its
// goroutine. Halt notices (APPROVAL_WEBHOOK) go out after the run's
// events are logged.
func (h *Handler) driveRun(w http.ResponseWriter, r *http.Request, sink *runSink, path string, body []byte, serve routeFunc, accepted func(http.ResponseWriter)) {
	inner, err := http.NewRequestWithContext(sink.ctx, http.MethodPost, path, strings.NewReader(string(body)))
	if err != nil {
		h.internalError(w, err)
		return
	}
	inner.Header.Set("Content-Type", "application/json")
	// /v1/resume seals the token the link answers with the link's lifetime.
	bound := *h
	ttl := strconv.Itoa(int(approvalTTL(h.opts.Getenv) / time.Second))
	getenv := h.opts.Getenv
	bound.opts.Getenv = func(name string) string {
		if name == "STATE_TTL_SECONDS" {
			return ttl
		}
		return getenv(name)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				h.opts.Logf("worker: durable run %s panicked: %v", sink.id, p)
				sink.fail()
			}
		}()
		serve(&bound, sink, inner)
		sink.close()
	}()
	select {
	case <-sink.started:
	case <-done:
	}
	if !sink.streaming {
		<-done
		sink.answerPlain(w)
		return
	}
	accepted(w)
	if d := detacherOf(w); d != nil {
		d.Detach()
		<-done
		sink.notify()
		return
	}
	go func() {
		<-done
		sink.notify()
	}()
}

// detacherOf finds the platform's response writer that can send its
// answer before the handler returns (Workers: internal/cfworker/runs_js.go).
func detacherOf(w http.ResponseWriter) interface{ Detach() } {
	for {
		if d, ok := w.(interface{ Detach() }); ok {
			return d
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
}

// rawJSON is JSON text that marshalJSON writes as is.
func rawString(s string) []byte {
	b, _ := marshalJSON(s)
	return b
}

// withoutKeys returns the JSON object obj without the given keys.
func withoutKeys(obj gjson.Result, keys ...string) []byte {
	out := []byte{'{'}
	obj.ForEach(func(k, v gjson.Result) bool {
		for _, drop := range keys {
			if k.String() == drop {
				return true
			}
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, k.Raw...)
		out = append(out, ':')
		out = append(out, v.Raw...)
		return true
	})
	return append(out, '}')
}
