package runs

import (
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
)

// view is what watchers see of a durable run, made from its journal: each
// entry's events (GET /v1/runs/{id}/events) and the public state after it
// (GET /v1/runs/{id}). The executor applies each entry it records, and
// the entries of earlier lives when it loads them, so the state it writes
// always follows from the whole journal.
type view struct {
	run    string
	agent  string // a team run's agent: its done event names it
	link   func(req *core.Request, at int64) (url string, expires time.Time)
	redact func(string) string

	status  string // running, pending, done, error
	text    string
	limit   string
	errBody *worker.APIError
	pending []byte // the public pending object
	// pendingURL and pendingExp are the pending request's link, as sent.
	pendingURL string
	pendingExp time.Time
	step       step
	at         int64 // the newest entry's time, ms

	turns   int
	usage   core.Usage
	model   string
	records []json.RawMessage // the finished calls, as the done event lists them
	asked   map[string]string // the kind of each request a pending event was sent for, by id
}

// step is what the run is doing: the public state's "step".
type step struct {
	Kind    string `json:"kind"` // starting, model, tool, waiting, ended
	Turn    int    `json:"turn,omitempty"`
	Attempt int    `json:"attempt,omitempty"`
	Tool    string `json:"tool,omitempty"`
}

func newView(run string, link func(*core.Request, int64) (string, time.Time), redact func(string) string) *view {
	return &view{run: run, link: link, redact: redact, status: "running", step: step{Kind: "starting"}, asked: map[string]string{}}
}

// apply folds e into the view and returns the events it makes.
func (v *view) apply(e *journal.Entry) []worker.RunEvent {
	if e.At > v.at {
		v.at = e.At
	}
	var out []worker.RunEvent
	add := func(typ string, data any) {
		if b, err := worker.MarshalJSON(data); err == nil {
			out = append(out, worker.RunEvent{Type: typ, Data: b})
		}
	}
	switch e.Kind {
	case journal.KindStart:
		v.status, v.step = "running", step{Kind: "starting"}
	case journal.KindModel:
		v.status, v.step = "running", step{Kind: "model", Turn: e.Turn, Attempt: e.Attempt}
	case journal.KindTurn:
		v.turns = e.Turn
		if e.Usage != nil {
			v.usage.PromptTokens += e.Usage.PromptTokens
			v.usage.CompletionTokens += e.Usage.CompletionTokens
			v.usage.TotalTokens += e.Usage.TotalTokens
			add(core.EventUsage, map[string]any{"type": core.EventUsage, "usage": e.Usage})
		}
		if e.Model != "" {
			v.model = e.Model
		}
		if e.Text != "" {
			v.text = e.Text
			add(core.EventText, map[string]any{"type": core.EventText, "delta": e.Text})
		}
		for _, c := range e.Calls {
			add(core.EventToolCall, map[string]any{"type": core.EventToolCall, "id": c.ID, "name": c.Name, "args": json.RawMessage(rawOrEmpty(c.Arguments))})
		}
		v.step = step{Kind: "tool", Turn: e.Turn}
	case journal.KindCall:
		v.step = step{Kind: "tool", Turn: e.Turn, Attempt: e.Attempt, Tool: e.Name}
	case journal.KindOutcome:
		ev := map[string]any{"type": core.EventToolResult, "id": e.Call, "name": e.Name, "output": e.Output}
		rec := map[string]any{"id": e.Call, "name": e.Name, "args": json.RawMessage(rawOrEmpty(string(e.Args))), "output": e.Output, "isError": e.IsError}
		if e.IsError {
			ev["isError"] = true
		}
		if len(e.Asked) > 0 {
			ev["args"], ev["originalArgs"], ev["edited"] = json.RawMessage(e.Args), string(e.Asked), true
			rec["originalArgs"], rec["edited"] = json.RawMessage(e.Asked), true
		}
		if e.Declined {
			ev["declined"], rec["declined"] = true, true
		}
		if e.Recorded {
			ev["recorded"], rec["recorded"] = true, true
		}
		if b, err := worker.MarshalJSON(rec); err == nil {
			v.records = append(v.records, b)
		}
		add(core.EventToolResult, ev)
	case journal.KindSuspend:
		if _, seen := v.asked[e.Request.ID]; e.Request == nil || seen {
			break
		}
		v.asked[e.Request.ID] = e.Request.Kind
		url, exp := v.link(e.Request, e.At)
		v.pendingURL, v.pendingExp = url, exp
		req := e.Request
		if req.ExpiresAt == "" {
			// The request can be answered as long as its link lasts: the
			// dialog counts that down.
			r := *req
			r.ExpiresAt = exp.UTC().Format(time.RFC3339)
			req = &r
		}
		args := json.RawMessage("{}")
		if b, err := worker.MarshalJSON(req.Data["args"]); err == nil && req.Data["args"] != nil {
			args = b
		}
		p := map[string]any{"id": req.ID, "kind": req.Kind, "tool": req.Data["tool"], "args": args, "approveURL": url,
			"expiresAt": exp.UTC().Format(time.RFC3339), "request": req}
		if path, ok := req.Data["path"]; ok {
			p["path"] = path
		}
		v.pending, _ = worker.MarshalJSON(p)
		v.status, v.step = "pending", step{Kind: "waiting", Turn: e.Turn}
		add(core.EventPending, map[string]any{"type": core.EventPending, "request": req, "approveURL": url, "expiresAt": p["expiresAt"]})
	case journal.KindAnswer:
		a := e.Answer
		v.status, v.pending, v.step = "running", nil, step{Kind: "starting"}
		add("answer", map[string]any{"type": "answer", "id": a.ID, "decision": decisionWord(*a, v.asked[a.ID]), "by": e.By})
	case journal.KindDecision:
		// The record's entry as it was made (GET /v1/runs/{id}/decisions
		// chains them): a page says which decision approved a call.
		add("decision", map[string]any{"type": "decision", "decision": json.RawMessage(e.Decision)})
	case journal.KindEnd:
		v.pending, v.step = nil, step{Kind: "ended"}
		if e.Text != "" {
			v.text = e.Text
		}
		v.limit = e.Limit
		if e.Status == "error" {
			v.status = "error"
			v.errBody = &worker.APIError{Code: "run_failed", Message: "the run failed: " + v.redact(e.Error)}
			add(core.EventError, map[string]any{"error": v.errBody})
			break
		}
		v.status = "done"
		records := v.records
		if records == nil {
			records = []json.RawMessage{}
		}
		done := map[string]any{"type": core.EventDone, "status": e.Status, "text": v.text, "turns": v.turns, "usage": v.usage,
			"toolCalls": records, "toolCallCount": len(records), "model": v.model}
		if e.Limit != "" {
			done["limit"] = e.Limit
		}
		if v.agent != "" {
			done["agent"], done["path"] = v.agent, []string{v.agent}
		}
		add(core.EventDone, done)
	}
	return out
}

// public is GET /v1/runs/{id}'s body: {"status", "text"?, "limit"?,
// "pending"?, "error"?, "step": {"kind", "turn"?, "attempt"?, "tool"?},
// "progressAt"} — progressAt is when the run last recorded a step.
func (v *view) public() []byte {
	out := map[string]any{"status": v.status, "step": v.step}
	if v.at > 0 {
		out["progressAt"] = time.UnixMilli(v.at).UTC().Format(time.RFC3339)
	}
	if v.status == "done" {
		out["text"] = v.text
		if v.limit != "" {
			out["limit"] = v.limit
		}
	}
	if v.pending != nil {
		out["pending"] = json.RawMessage(v.pending)
	}
	if v.errBody != nil {
		out["error"] = v.errBody
	}
	b, _ := worker.MarshalJSON(out)
	return b
}

// decisionWord names what an answer to a request of kind decided, for its
// event and the record.
func decisionWord(a core.Answer, kind string) string {
	switch {
	case kind == core.KindOutcomeUnknown && !a.Ok:
		return "failed"
	case a.Data["outcome"] == "happened":
		return "happened"
	case a.Data["outcome"] == "rerun":
		return "rerun"
	case !a.Ok:
		return "declined"
	case a.Data["args"] != nil:
		return "edited"
	}
	return "approved"
}

// rawOrEmpty is argument text as JSON: an empty text is {}.
func rawOrEmpty(s string) string {
	if s == "" || !jsonx.ValidString(s) {
		return "{}"
	}
	return s
}
