package runs

import (
	"context"
	"errors"
	"strings"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
)

// A durable run's decision record (issue 32) is its journal's: core
// records each decision — a rule's, a grant's, a person's answer as it
// takes effect — as a journal entry before it takes effect, and a grant's
// revocation is one too. The record is those entries in journal order,
// chained when it is read (approval.Log): the journal is the one ordered,
// append-only list of the run, which its RunLog object writes one entry at
// a time, so every read chains the same entries the same way, and a
// decision is never kept twice (a replayed answer is refused by the run,
// a continuation's repeat by the entry's key). An entry changed or removed
// in storage changes the hashes from there on: a head read before (the
// response's "head", the X-Decisions-Head header) no longer matches.

// record reads run id's decision record from its journal.
func record(ctx context.Context, store worker.RunStore, id string) ([]approval.Entry, string, error) {
	texts, err := store.Load(ctx, id)
	if err != nil {
		return nil, "", err
	}
	entries, err := journal.DecodeAll(texts)
	if err != nil {
		return nil, "", err
	}
	var log approval.Log
	for _, e := range entries {
		if e.Kind != journal.KindDecision {
			continue
		}
		d, err := approval.DecodeEntry(e.Decision)
		if err != nil {
			return nil, "", errors.New("journal entry " + e.Key() + ": " + err.Error())
		}
		log.Add(d)
	}
	return log.Entries(), log.Head(), nil
}

// serveRunDecisions is GET /v1/runs/{id}/decisions: {"run", "count",
// "head", "decisions": [entry…]}, or with ?format=jsonl (or Accept:
// application/jsonl) the entries as JSON Lines, the head in the
// X-Decisions-Head header. approval.Verify checks a record.
func serveRunDecisions(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	store, ok := runsStore(h, w)
	if !ok {
		return
	}
	id := runIDOf(r.URL.Path)
	if _, found, err := getRun(r.Context(), store, id, ""); !runFound(h, w, found, err) {
		return
	}
	entries, head, err := record(r.Context(), store, id)
	if err != nil {
		h.Options().Logf("worker: durable run %s: decisions: %v", id, err)
		worker.WriteError(w, httpx.StatusServiceUnavailable, "run_store", "could not read the run's decisions; retry")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Decisions-Head", head)
	if r.URL.Query().Get("format") == "jsonl" || strings.Contains(r.Header.Get("Accept"), "application/jsonl") {
		w.Header().Set("Content-Type", "application/jsonl; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+id+`-decisions.jsonl"`)
		w.WriteHeader(httpx.StatusOK)
		w.Write(approval.AppendJSONL(nil, entries))
		return
	}
	if entries == nil {
		entries = []approval.Entry{}
	}
	worker.WriteJSON(w, httpx.StatusOK, map[string]any{"run": id, "count": len(entries), "head": head, "decisions": entries})
}

// serveRunRevoke is POST /v1/runs/{id}/revoke {"grant": <the id of the
// request whose approval gave it>} ⇒ 200 {"status": "revoked",
// "decision": entry}: later calls of the tool in the run ask again (from
// the executor's next step on: a step already running keeps what it
// read). 404 no_grant when the run holds no such grant, or holds it no
// longer.
func serveRunRevoke(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	opts := h.Options()
	store, ok := runsStore(h, w)
	if !ok {
		return
	}
	doc, err := worker.ReadJSONBody(r)
	if err != nil {
		worker.WriteBodyError(w, err)
		return
	}
	var grant string
	if err := worker.ReadBodyObject(doc, true, jsonx.Field{Name: "grant", Read: jsonx.String(&grant)}); err != nil {
		worker.WriteBodyError(w, err)
		return
	}
	if grant == "" {
		worker.WriteError(w, httpx.StatusBadRequest, "missing_field", `"grant" is required: the request id of the approval that allowed the tool for the run`)
		return
	}
	id := runIDOf(r.URL.Path)
	if _, found, err := getRun(r.Context(), store, id, ""); !runFound(h, w, found, err) {
		return
	}
	entries, _, err := record(r.Context(), store, id)
	if err != nil {
		opts.Logf("worker: durable run %s: decisions: %v", id, err)
		worker.WriteError(w, httpx.StatusServiceUnavailable, "run_store", "could not read the run's decisions; retry")
		return
	}
	var given *approval.Entry
	for i := range entries {
		switch e := &entries[i]; {
		case e.Grant != "" && e.Request == grant:
			given = e
		case e.Decision == approval.Revoked && e.Request == grant:
			given = nil
		}
	}
	if given == nil {
		worker.WriteError(w, httpx.StatusNotFound, "no_grant", "the run holds no grant "+worker.QuoteClip(grant)+" (revoked already, or never given)")
		return
	}
	e := approval.Entry{At: approval.Stamp(opts.Now()), Run: id, Tool: given.Tool, Request: grant, Decision: approval.Revoked, From: approval.FromAPI}
	je := journal.Entry{Kind: journal.KindDecision, At: opts.Now().UnixMilli(), Decision: e.AppendJSON(nil)}
	text, err := je.AppendJSON(nil)
	if err != nil {
		h.InternalError(w, err)
		return
	}
	ev, _ := worker.MarshalJSON(map[string]any{"type": "decision", "decision": e})
	step := worker.RunStep{Key: je.Key(), Entry: text, Events: []worker.RunEvent{{Type: "decision", Data: ev}}}
	if err := store.Record(context.WithoutCancel(r.Context()), id, step); err != nil {
		if errors.Is(err, journal.ErrDuplicate) {
			worker.WriteError(w, httpx.StatusNotFound, "no_grant", "the grant "+worker.QuoteClip(grant)+" was revoked already")
			return
		}
		opts.Logf("worker: run store: %v", err)
		worker.WriteError(w, httpx.StatusServiceUnavailable, "run_store", "could not record the revocation; retry")
		return
	}
	worker.WriteJSON(w, httpx.StatusOK, map[string]any{"status": "revoked", "decision": e})
}
