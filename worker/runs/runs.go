// Package runs is the Worker's durable runs (issues 24 and 31): POST
// /v1/runs starts a run that lives in a worker.RunStore (the RunLog
// Durable Object on Workers) and is run there, not by the request that
// started it: the request records the run's start in its journal
// (core/journal) and answers 202; the RunLog's alarm runs the executor
// (drive.go), which continues the run from its journal step by step
// (core's Client.Continue; team runs by legs, team.go) until it halts or
// ends, and after an eviction, a deploy or a crash continues it again. A
// halt publishes a signed approval link (link.go) whose answer is
// recorded in the journal before it takes effect, and the executor goes
// on. Watchers read the event log (GET /v1/runs/{id}/events) and the
// state (GET /v1/runs/{id}), both made from the journal (view.go) and
// written with each entry. Package worker keeps the RunStore, which its
// Options bind, and the route keys of the paths with an id.
package runs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

// Mount adds POST /v1/runs, GET /v1/runs/{id}, GET /v1/runs/{id}/events,
// the run's decision record (GET /v1/runs/{id}/decisions) and the
// revocation of its grants (POST /v1/runs/{id}/revoke), the approval
// links' page and answer (GET and POST /approve) and the
// page's modules to the Worker's handler, and registers the executor
// (drive). The handlers get the Handler bound to the request
// (worker.Options.Bind).
func Mount(h *worker.Handler) {
	h.SetRunExecutor(drive)
	h.Handle("/v1/runs", worker.Route{Name: "runs", Post: serveRunsStart, Allow: "POST, OPTIONS", API: true, JSON: true})
	h.Handle(worker.RunStateRoute, worker.Route{Name: "run_state", Get: serveRunState, Allow: "GET, HEAD, OPTIONS", API: true})
	h.Handle(worker.RunEventsRoute, worker.Route{Name: "run_events", Get: serveRunEvents, Allow: "GET, OPTIONS", API: true})
	h.Handle(worker.RunDecisionsRoute, worker.Route{Name: "run_decisions", Get: serveRunDecisions, Allow: "GET, HEAD, OPTIONS", API: true})
	h.Handle(worker.RunRevokeRoute, worker.Route{Name: "run_revoke", Post: serveRunRevoke, Allow: "POST, OPTIONS", API: true, JSON: true})
	h.Handle(approveRoute, worker.Route{Name: "approve", Get: serveApprovePage, Post: serveApprove, Allow: "GET, POST, OPTIONS", JSON: true})
	h.Handle(worker.ApproveAssetRoute, worker.Route{Name: "approve_asset", Get: serveApproveAsset, Allow: "GET, HEAD, OPTIONS"})
}

// runIDOf returns the run id of a run route's path, "" when it is not a
// well-formed id (run_ and 32 hex digits).
func runIDOf(path string) string {
	id := strings.TrimPrefix(path, "/v1/runs/")
	if i := strings.IndexByte(id, '/'); i >= 0 {
		id = id[:i] // /events, /decisions, /revoke
	}
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
func runsStore(h *worker.Handler, w httpx.ResponseWriter) (worker.RunStore, bool) {
	var s worker.RunStore
	if runs := h.Options().Runs; runs != nil {
		s = runs()
	}
	if s == nil {
		worker.WriteError(w, httpx.StatusServiceUnavailable, "runs_unavailable", "this Worker has no "+worker.RunsBinding+" Durable Object binding, which keeps durable runs; nothing ran. Use POST /v1/run, or deploy with the generated wrangler.jsonc")
		return nil, false
	}
	return s, true
}

// serveRunsStart is POST /v1/runs: the body of /v1/run. It records the
// run's start and answers 202 {"id", "status": "running", "events"}; the
// run's executor runs it. A body or setting /v1/run refuses is refused the
// same way, and nothing is recorded.
func serveRunsStart(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	opts := h.Options()
	_, req, ok := worker.BeginJSON(h, w, r, worker.DecodeRunRequest)
	if !ok {
		return
	}
	if _, ok := runsStore(h, w); !ok {
		return
	}
	switch {
	case strings.TrimSpace(req.Prompt) == "":
		worker.WriteError(w, httpx.StatusBadRequest, "missing_field", `"prompt" is required and must be a non-empty string`)
		return
	case req.Conversation != "":
		worker.WriteError(w, httpx.StatusBadRequest, "unsupported_field", `"conversation" cannot be combined with a durable run: the run keeps its own transcript`)
		return
	case req.Agent != "" && len(req.Messages) > 0:
		worker.WriteError(w, httpx.StatusBadRequest, "unsupported_field", `"messages" cannot be combined with "agent": an agent team keeps its own transcripts`)
		return
	case req.Agent != "" && h.TeamsUnavailable(w):
		return
	}
	if !worker.CheckWorkspace(w, req.Workspace) {
		return
	}
	id, err := Start(h, r.Context(), Begin{Origin: worker.OriginOf(r), Prompt: req.Prompt, History: req.Messages, Agent: req.Agent, Workspace: req.Workspace})
	if errors.Is(err, ErrRunStore) {
		opts.Logf("worker: run store: %v", err)
		worker.WriteError(w, httpx.StatusServiceUnavailable, "run_store", "could not record the run; nothing ran")
		return
	}
	if err != nil {
		h.InternalError(w, err)
		return
	}
	worker.WriteJSON(w, httpx.StatusAccepted, map[string]string{"id": id, "status": "running", "events": "/v1/runs/" + id + "/events"})
}

// serveRunState is GET /v1/runs/{id}: {"status": "running"|"pending"|
// "done"|"error", "text"?, "limit"?, "pending"?: {"id", "kind", "tool",
// "args", "path"?, "approveURL", "expiresAt", "request"}, "error"?,
// "step": {"kind": "starting"|"model"|"tool"|"waiting"|"ended", "turn"?,
// "attempt"?, "tool"?}, "progressAt"} (view.go).
func serveRunState(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	store, ok := runsStore(h, w)
	if !ok {
		return
	}
	id := runIDOf(r.URL.Path)
	rec, found, err := getRun(r.Context(), store, id, "")
	if err != nil {
		h.Options().Logf("worker: run store: %v", err)
		worker.WriteError(w, httpx.StatusServiceUnavailable, "run_store", "could not read the run; retry")
		return
	}
	if !found {
		worker.WriteError(w, httpx.StatusNotFound, "not_found", "no run "+worker.QuoteClip(r.URL.Path[len("/v1/runs/"):]))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(httpx.StatusOK)
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
func serveRunEvents(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	opts := h.Options()
	store, ok := runsStore(h, w)
	if !ok {
		return
	}
	id := runIDOf(r.URL.Path)
	if _, found, err := getRun(r.Context(), store, id, ""); err != nil || !found {
		if err != nil {
			opts.Logf("worker: run store: %v", err)
			worker.WriteError(w, httpx.StatusServiceUnavailable, "run_store", "could not read the run; retry")
			return
		}
		worker.WriteError(w, httpx.StatusNotFound, "not_found", "no run "+worker.QuoteClip(strings.TrimSuffix(r.URL.Path[len("/v1/runs/"):], "/events")))
		return
	}
	after := 0
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			worker.WriteError(w, httpx.StatusBadRequest, "invalid_field", "Last-Event-ID must be the id of an event of this run")
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
