// Package runs is the Worker's durable runs (issue 24): POST /v1/runs
// starts a run whose state, event log and halted transcript live in a
// worker.RunStore (the RunLog Durable Object on Workers) instead of with
// the caller. The run itself is /v1/run's own streamed run
// (worker.Handler.ServeRun with "stream": true) written into a runSink,
// which logs each event in the store; a halt keeps the sealed state token
// in the store (it never leaves the Worker) and publishes a signed
// approval link (link.go) whose answer resumes the run through
// /v1/resume's own code (ServeResume), so every check of /v1/resume (the
// APPROVALS ledger, edited arguments against the schema, agent teams'
// trees) applies unchanged. Package worker keeps the RunStore, which its
// Options bind, and the route keys of the paths with an id.
package runs

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
	"github.com/toolnexus/wasm/worker"
)

// Mount adds POST /v1/runs, GET /v1/runs/{id}, GET /v1/runs/{id}/events,
// the approval links' page and answer (GET and POST /approve) and the
// page's modules to the Worker's handler. The handlers get the Handler
// bound to the request (worker.Options.Bind).
func Mount(h *worker.Handler) {
	h.Handle("/v1/runs", worker.Route{Name: "runs", Post: serveRunsStart, Allow: "POST, OPTIONS", API: true, JSON: true})
	h.Handle(worker.RunStateRoute, worker.Route{Name: "run_state", Get: serveRunState, Allow: "GET, HEAD, OPTIONS", API: true})
	h.Handle(worker.RunEventsRoute, worker.Route{Name: "run_events", Get: serveRunEvents, Allow: "GET, OPTIONS", API: true})
	h.Handle(approveRoute, worker.Route{Name: "approve", Get: serveApprovePage, Post: serveApprove, Allow: "GET, POST, OPTIONS", JSON: true})
	h.Handle(worker.ApproveAssetRoute, worker.Route{Name: "approve_asset", Get: serveApproveAsset, Allow: "GET, HEAD, OPTIONS"})
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
func runsStore(h *worker.Handler, w http.ResponseWriter) (worker.RunStore, bool) {
	var s worker.RunStore
	if runs := h.Options().Runs; runs != nil {
		s = runs()
	}
	if s == nil {
		worker.WriteError(w, http.StatusServiceUnavailable, "runs_unavailable", "this Worker has no "+worker.RunsBinding+" Durable Object binding, which keeps durable runs; nothing ran. Use POST /v1/run, or deploy with the generated wrangler.jsonc")
		return nil, false
	}
	return s, true
}

// serveRunsStart is POST /v1/runs: the body of /v1/run. It answers 202
// {"id", "status": "running", "events"} as soon as the run has started;
// a body or setting /v1/run refuses is refused the same way.
func serveRunsStart(h *worker.Handler, w http.ResponseWriter, r *http.Request) {
	opts := h.Options()
	cfg, req, ok := worker.BeginJSON(h, w, r, worker.DecodeRunRequest)
	if !ok {
		return
	}
	store, ok := runsStore(h, w)
	if !ok {
		return
	}
	if req.Conversation != "" {
		worker.WriteError(w, http.StatusBadRequest, "unsupported_field", `"conversation" cannot be combined with a durable run: the run keeps its own transcript`)
		return
	}
	id, err := newRunID()
	if err != nil {
		h.InternalError(w, err)
		return
	}
	ctx := context.WithoutCancel(r.Context())
	ttl := approvalTTL(opts.Getenv)
	if err := store.Create(ctx, id, []byte(`{"status":"running"}`), opts.Now().Add(2*ttl+24*time.Hour)); err != nil {
		opts.Logf("worker: run store: %v", err)
		worker.WriteError(w, http.StatusServiceUnavailable, "run_store", "could not record the run; nothing ran")
		return
	}
	req.Stream = true
	body, err := worker.MarshalJSON(req)
	if err != nil {
		h.InternalError(w, err)
		return
	}
	sink := newRunSink(ctx, h, cfg, store, id, worker.OriginOf(r))
	sink.starts = true
	driveRun(h, w, r, sink, "/v1/run", body, (*worker.Handler).ServeRun, func(w http.ResponseWriter) {
		worker.WriteJSON(w, http.StatusAccepted, map[string]string{"id": id, "status": "running", "events": "/v1/runs/" + id + "/events"})
	})
}

// serveRunState is GET /v1/runs/{id}: {"status": "running"|"pending"|
// "done"|"error", "text"?, "pending"?: {"id", "tool", "args", "path"?,
// "approveURL", "expiresAt", "request"}, "error"?}.
func serveRunState(h *worker.Handler, w http.ResponseWriter, r *http.Request) {
	store, ok := runsStore(h, w)
	if !ok {
		return
	}
	id := runIDOf(r.URL.Path)
	rec, found, err := getRun(r.Context(), store, id, "")
	if err != nil {
		h.Options().Logf("worker: run store: %v", err)
		worker.WriteError(w, http.StatusServiceUnavailable, "run_store", "could not read the run; retry")
		return
	}
	if !found {
		worker.WriteError(w, http.StatusNotFound, "not_found", "no run "+worker.QuoteClip(r.URL.Path[len("/v1/runs/"):]))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(rec.Public)
}

// getRun is store.Get for a well-formed id; a malformed one is no run.
func getRun(ctx context.Context, store worker.RunStore, id, req string) (worker.RunRecord, bool, error) {
	if id == "" {
		return worker.RunRecord{}, false, nil
	}
	return store.Get(ctx, id, req)
}

// runEventsWait is how long one read of the event log waits for news
// before the stream sends a keep-alive comment.
const runEventsWait = 20 * time.Second

// serveRunEvents is GET /v1/runs/{id}/events: the run's events from the
// beginning (or after Last-Event-ID), each with its "id:", live until its
// done or error event.
func serveRunEvents(h *worker.Handler, w http.ResponseWriter, r *http.Request) {
	opts := h.Options()
	store, ok := runsStore(h, w)
	if !ok {
		return
	}
	id := runIDOf(r.URL.Path)
	if _, found, err := getRun(r.Context(), store, id, ""); err != nil || !found {
		if err != nil {
			opts.Logf("worker: run store: %v", err)
			worker.WriteError(w, http.StatusServiceUnavailable, "run_store", "could not read the run; retry")
			return
		}
		worker.WriteError(w, http.StatusNotFound, "not_found", "no run "+worker.QuoteClip(strings.TrimSuffix(r.URL.Path[len("/v1/runs/"):], "/events")))
		return
	}
	after := 0
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			worker.WriteError(w, http.StatusBadRequest, "invalid_field", "Last-Event-ID must be the id of an event of this run")
			return
		}
		after = n
	}
	sse := worker.NewSSEWriter(w)
	if sse.Comment("toolnexus run "+id) != nil {
		return
	}
	for {
		events, ended, err := store.Events(r.Context(), id, after, runEventsWait)
		if err != nil {
			if r.Context().Err() == nil {
				opts.Logf("worker: run store: %v", err)
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
			if sse.Send(b) != nil {
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

// driveRun serves a synthetic POST of body on path with serve into sink,
// on a context the caller's leaving does not cancel. When the route
// answered plainly (an error before the run started) its answer is the
// caller's; once it streams, accepted answers the caller and the run goes
// on: on Workers the response is sent now (detach) and the request lives
// until the run has halted or ended; natively the run goes on in its
// goroutine. Halt notices (APPROVAL_WEBHOOK) go out after the run's
// events are logged.
func driveRun(h *worker.Handler, w http.ResponseWriter, r *http.Request, sink *runSink, path string, body []byte, serve func(*worker.Handler, http.ResponseWriter, *http.Request), accepted func(http.ResponseWriter)) {
	opts := h.Options()
	inner, err := http.NewRequestWithContext(sink.ctx, http.MethodPost, path, strings.NewReader(string(body)))
	if err != nil {
		h.InternalError(w, err)
		return
	}
	inner.Header.Set("Content-Type", "application/json")
	// /v1/resume seals the token the link answers with the link's lifetime.
	bound := h.WithEnv("STATE_TTL_SECONDS", strconv.Itoa(int(approvalTTL(opts.Getenv)/time.Second)))
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				opts.Logf("worker: durable run %s panicked: %v", sink.id, p)
				sink.fail()
			}
		}()
		serve(bound, sink, inner)
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

// rawString is s as JSON text.
func rawString(s string) []byte {
	b, _ := worker.MarshalJSON(s)
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
