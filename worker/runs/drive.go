package runs

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/worker"
)

// The executor of durable runs: what happens to a run, after a crash too,
// reads top-down from here. The RunLog's alarm (natively MemoryRunStore's
// goroutine) calls drive whenever the run has work — it was started, or a
// request of it was answered, or an earlier life of the executor stopped
// — and drive continues the run from its journal (core's Client.Continue
// for one agent, teamLeg for a team) until it halts, ends, or its time is
// up. Every step is recorded before it takes effect, so a life cut off
// anywhere leaves a journal the next life continues from.

// Limits of a run. driveBudget bounds one life of the executor (an alarm
// may run 15 minutes on Cloudflare); RUN_MAX_SECONDS (default
// defaultLegLimit) bounds a leg: from the run's start, or from an answer,
// to its next halt or its end, across lives. MAX_TURNS bounds its model
// calls.
var driveBudget = 10 * time.Minute

const defaultLegLimit = 30 * time.Minute

// runMeta is what a run was started with besides its prompt: the start
// entry's Meta.
type runMeta struct {
	Origin    string `json:"origin"`
	Agent     string `json:"agent,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	// Product is the data of the product that started the run (Begin).
	Product json.RawMessage `json:"product,omitempty"`
}

func readMeta(raw []byte) runMeta {
	doc := gjson.ParseBytes(raw)
	return runMeta{Origin: doc.Get("origin").String(), Agent: doc.Get("agent").String(), Workspace: doc.Get("workspace").String()}
}

// drive is the run executor (worker.Handler.SetRunExecutor). It reports
// again when its time was up before the run halted or ended.
func drive(h *worker.Handler, ctx context.Context, id string) (again bool) {
	opts := h.Options()
	store := opts.Runs()
	if store == nil {
		return false
	}
	cfg, cfgErr := h.CheckConfig()
	j := &runJournal{store: store, id: id, now: opts.Now, view: newView(id, linkMaker(cfg, opts.Getenv, "", id), redactor(cfg)), logf: opts.Logf}
	if opts.Getenv("TOOLNEXUS_TEST_HOOKS") == "1" {
		j.pause = opts.Getenv("TOOLNEXUS_TEST_PAUSE")
		if j.pause == "stall" {
			return false // a life that records nothing: the RunLog's stall count
		}
	}
	entries, err := j.open(ctx)
	if err != nil {
		opts.Logf("worker: durable run %s: %v", id, err)
		return false
	}
	if len(entries) == 0 || entries[0].Kind != journal.KindStart || ended(entries) {
		return false
	}
	meta := readMeta(entries[0].Meta)
	j.view.link, j.view.agent = linkMaker(cfg, opts.Getenv, meta.Origin, id), meta.Agent
	if _, err := j.Load(ctx); err != nil {
		opts.Logf("worker: durable run %s: %v", id, err)
		return false
	}
	if cfgErr != nil {
		fail(ctx, j, "the Worker's settings are not valid: "+cfgErr.Error())
		return false
	}
	limit := legLimit(opts.Getenv)
	legStart := legBegan(entries)
	now := opts.Now()
	if now.Sub(legStart) > limit {
		fail(ctx, j, "the run ran longer than RUN_MAX_SECONDS ("+strconv.Itoa(int(limit/time.Second))+" s) without halting")
		return false
	}
	// Durations, not deadlines: the handler's clock (Options.Now) may not
	// be the context's.
	dctx, cancel := context.WithTimeout(ctx, min(limit-now.Sub(legStart), driveBudget))
	defer cancel()
	var pending *core.Request
	if meta.Agent != "" {
		pending = teamLeg(h, dctx, cfg, j, meta, entries)
	} else {
		pending = agentLeg(h, dctx, cfg, j, meta)
	}
	if dctx.Err() != nil && ctx.Err() == nil {
		if opts.Now().Sub(legStart) >= limit {
			fail(ctx, j, "the run ran longer than RUN_MAX_SECONDS ("+strconv.Itoa(int(limit/time.Second))+" s) without halting")
			return false
		}
		return true // the next life goes on
	}
	if pending != nil {
		notify(ctx, h, store, id, pending, j.view)
	}
	return false
}

// agentLeg continues a one-agent run with core's Continue and returns the
// request it halted on, if it did.
func agentLeg(h *worker.Handler, ctx context.Context, cfg worker.Config, j *runJournal, meta runMeta) *core.Request {
	opts := h.Options()
	tk, err := h.NewToolkit(ctx, meta.Workspace)
	if err != nil {
		fail(ctx, j, "the run's tools could not be built: "+err.Error())
		return nil
	}
	defer tk.Close()
	res, err := h.AgentClient(cfg, tk, 0).Continue(ctx, tk, j)
	switch {
	case err != nil && ctx.Err() != nil:
		// Cut off by its time (or the platform): the journal holds every
		// step it made; the next life goes on from there.
	case errors.Is(err, core.ErrJournal):
		opts.Logf("worker: durable run %s: %v", j.id, worker.Redact(err.Error(), cfg.APIKey, cfg.StateSecret, cfg.APIToken))
	case err != nil:
		// core recorded the end (the run failed): nothing to do.
		opts.Logf("worker: durable run %s failed: %s", j.id, worker.Redact(err.Error(), cfg.APIKey, cfg.StateSecret, cfg.APIToken))
	case res.Status == core.StatusPending:
		return res.Pending
	default:
		h.CountRun("runs", res.Status)
	}
	return nil
}

// fail ends the run with an error every watcher sees.
func fail(ctx context.Context, j *runJournal, why string) {
	if err := j.Record(context.WithoutCancel(ctx), journal.Entry{Kind: journal.KindEnd, At: time.Now().UnixMilli(), Status: "error", Error: why}); err != nil && !errors.Is(err, journal.ErrDuplicate) {
		// The store refuses: the RunLog's alarm counts a life without
		// progress and ends the run itself after a few.
		_ = err
	}
}

// ended reports whether entries hold the run's end.
func ended(entries []journal.Entry) bool {
	return len(entries) > 0 && entries[len(entries)-1].Kind == journal.KindEnd
}

// legBegan is when the current leg began: the run's start, or the newest
// answer.
func legBegan(entries []journal.Entry) time.Time {
	var at int64
	for _, e := range entries {
		if e.Kind == journal.KindStart || e.Kind == journal.KindAnswer {
			at = e.At
		}
	}
	if at == 0 {
		return time.Now()
	}
	return time.UnixMilli(at)
}

// legLimit reads RUN_MAX_SECONDS (a positive whole number).
func legLimit(getenv func(string) string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("RUN_MAX_SECONDS"))); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return defaultLegLimit
}

// redactor removes the Worker's secrets from a text a watcher will read.
func redactor(cfg worker.Config) func(string) string {
	return func(s string) string { return worker.Redact(s, cfg.APIKey, cfg.StateSecret, cfg.APIToken) }
}

// linkMaker signs the approval link of each request of run id: it names
// the request and its arguments' digest, and expires APPROVAL_TTL_SECONDS
// after the request was recorded.
func linkMaker(cfg worker.Config, getenv func(string) string, origin, id string) func(*core.Request, int64) (string, time.Time) {
	ttl := approvalTTL(getenv)
	key := linkKey(cfg.StateSecret)
	return func(req *core.Request, at int64) (string, time.Time) {
		exp := time.UnixMilli(at).Add(ttl).Truncate(time.Second)
		args, _ := worker.MarshalJSON(req.Data["args"])
		if req.Data["args"] == nil {
			args = nil
		}
		l := approvalLink{Run: id, Req: req.ID, Digest: argsDigest(string(args)), Exp: exp.Unix()}
		return origin + l.path(key), exp
	}
}

// notify tells APPROVAL_WEBHOOK about the halt on req, once per request:
// a later life finds the note and stays quiet.
func notify(ctx context.Context, h *worker.Handler, store worker.RunStore, id string, req *core.Request, v *view) {
	if strings.TrimSpace(h.Options().Getenv("APPROVAL_WEBHOOK")) == "" {
		return
	}
	if told, _ := store.Note(ctx, id, "notified"); string(told) == req.ID {
		return
	}
	if err := store.SetNote(ctx, id, "notified", []byte(req.ID)); err != nil {
		return
	}
	postWebhook(ctx, h, id, req, v.pendingURL, v.pendingExp.UTC().Format(time.RFC3339))
}
