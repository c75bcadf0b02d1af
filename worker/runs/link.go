package runs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/web"
	"github.com/toolnexus/wasm/worker"
)

// Approval links (issue 24): a durable run's pending request is answered
// at
//
//	/approve?run=<run id>&req=<request id>&d=<digest of the arguments>&e=<expiry, unix s>&s=<signature>
//
// s is HMAC-SHA256, under a key derived from STATE_SECRET, of the other
// four, so a link names one request of one run with the exact arguments
// it showed, until e. GET serves the approval page (web/approve-page.mjs
// over web/approval-dialog.mjs); GET with &view=json its data; POST
// {"ok", "reason"?, "args"?} answers it once: the run's RunLog records the
// first answer (racing approvers: exactly one wins, the others get 409
// and the winning decision), then /v1/resume's own code spends the state
// token in the APPROVALS ledger and resumes the run.

const (
	approveRoute = "/approve"
	// DefaultApprovalTTL is how long an approval link (and the halted run's
	// state token) stays good: APPROVAL_TTL_SECONDS.
	DefaultApprovalTTL = 24 * time.Hour
)

// approvalTTL reads APPROVAL_TTL_SECONDS (a positive whole number).
func approvalTTL(getenv func(string) string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("APPROVAL_TTL_SECONDS"))); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return DefaultApprovalTTL
}

type approvalLink struct {
	Run, Req, Digest string
	Exp              int64
}

// linkKey derives the links' key from STATE_SECRET.
func linkKey(secret string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("toolnexus-wasm approval link v1"))
	return m.Sum(nil)
}

func (l approvalLink) sign(key []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(l.Run + "\n" + l.Req + "\n" + l.Digest + "\n" + strconv.FormatInt(l.Exp, 10)))
	return m.Sum(nil)
}

// path is the link's path and query.
func (l approvalLink) path(key []byte) string {
	return approveRoute + "?run=" + url.QueryEscape(l.Run) + "&req=" + url.QueryEscape(l.Req) + "&d=" + l.Digest +
		"&e=" + strconv.FormatInt(l.Exp, 10) + "&s=" + base64.RawURLEncoding.EncodeToString(l.sign(key))
}

// argsDigest is the first 128 bits of SHA-256 of the arguments' JSON text,
// as hex.
func argsDigest(args string) string {
	sum := sha256.Sum256([]byte(args))
	return hex.EncodeToString(sum[:16])
}

// openLinkRequest reads what both approve routes need: the request's
// configuration, the runs' store and the checked link (openLink). On a
// failure it has answered and reports false.
func openLinkRequest(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) (worker.Config, worker.RunStore, approvalLink, bool) {
	cfg, ok := h.RequestConfig(w)
	if !ok {
		return cfg, nil, approvalLink{}, false
	}
	store, ok := runsStore(h, w)
	if !ok {
		return cfg, nil, approvalLink{}, false
	}
	l, ok := openLink(h, w, r, cfg)
	return cfg, store, l, ok
}

// openLink checks the link in r's query: 400 link_malformed, 403
// link_invalid (not signed by this Worker, or edited: another run, request
// or digest), 410 link_expired. It answers and reports false on failure.
func openLink(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config) (approvalLink, bool) {
	q := r.URL.Query()
	l := approvalLink{Run: q.Get("run"), Req: q.Get("req"), Digest: q.Get("d")}
	exp, err := strconv.ParseInt(q.Get("e"), 10, 64)
	sig, err2 := base64.RawURLEncoding.Strict().DecodeString(q.Get("s"))
	if err != nil || err2 != nil || l.Run == "" || l.Req == "" || l.Digest == "" || len(sig) == 0 {
		worker.WriteError(w, httpx.StatusBadRequest, "link_malformed", "this approval link is incomplete: open the whole link you were sent")
		return l, false
	}
	l.Exp = exp
	if !hmac.Equal(sig, l.sign(linkKey(cfg.StateSecret))) {
		worker.WriteError(w, httpx.StatusForbidden, "link_invalid", "this approval link is not valid: it was changed, or it belongs to another Worker")
		return l, false
	}
	if h.Options().Now().Unix() >= l.Exp {
		worker.WriteError(w, httpx.StatusGone, "link_expired", "this approval link has expired; the run can no longer be answered")
		return l, false
	}
	return l, true
}

// serveApproveAsset serves the approval page's modules.
func serveApproveAsset(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	name := path.Base(r.URL.Path)
	b, err := web.ApprovalPage.ReadFile(name)
	if err != nil || !strings.HasSuffix(name, ".mjs") {
		worker.WriteError(w, httpx.StatusNotFound, "not_found", "no asset "+worker.QuoteClip(name))
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(httpx.StatusOK)
	w.Write(b)
}

// approvePageHTML is the approval page; the link's data comes from
// approve-page.mjs's own request.
const approvePageHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Approve a tool call</title>
<link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem}#status[data-kind=error]{color:#b00020}pre{overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}</style>
</head><body>
<h1>Approve a tool call</h1>
<p id="status" role="status" aria-live="polite">Loading the request…</p>
<form id="token-form" hidden><label for="token">Approver token</label> <input id="token" type="password" autocomplete="off" required> <button type="submit">Continue</button></form>
<script type="module" src="/approve/assets/approve-page.mjs"></script>
</body></html>
`

// securePage sets the headers of the approval page and its JSON: the link
// (a capability) must not leak through a Referer, and nothing but the
// Worker's own modules may run.
func securePage(w httpx.ResponseWriter) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
}

// serveApprovePage is GET /approve: the page, or with view=json the
// pending request the link names:
//
//	{"run", "status", "request"?, "answered"?: decision, "tokenRequired", "where"}
func serveApprovePage(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	securePage(w)
	if r.URL.Query().Get("view") != "json" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(httpx.StatusOK)
		w.Write([]byte(approvePageHTML))
		return
	}
	_, store, l, ok := openLinkRequest(h, w, r)
	if !ok {
		return
	}
	rec, found, err := getRun(r.Context(), store, l.Run, l.Req)
	if !runFound(h, w, found, err) {
		return
	}
	pub := gjson.ParseBytes(rec.Public)
	out := map[string]any{"run": l.Run, "status": pub.Get("status").String(), "tokenRequired": h.Options().Getenv("APPROVER_TOKEN") != "", "where": "the agent at " + r.Host}
	if rec.Decision != nil {
		out["answered"] = json.RawMessage(rec.Decision)
	} else if p := pub.Get("pending"); p.Get("id").String() == l.Req && argsDigest(p.Get("args").Raw) == l.Digest {
		out["request"] = json.RawMessage(p.Get("request").Raw)
	} else {
		out["status"] = "answered"
		out["answered"] = map[string]string{"decision": "unknown"}
	}
	worker.WriteJSON(w, httpx.StatusOK, out)
}

// runFound answers a missing run (404) or a store failure (503).
func runFound(h *worker.Handler, w httpx.ResponseWriter, found bool, err error) bool {
	if err != nil {
		h.Options().Logf("worker: run store: %v", err)
		worker.WriteError(w, httpx.StatusServiceUnavailable, "run_store", "could not read the run; retry")
		return false
	}
	if !found {
		worker.WriteError(w, httpx.StatusNotFound, "not_found", "this run is no longer stored")
		return false
	}
	return true
}

// approveBody is the body of POST /approve.
type approveBody struct {
	Ok      *bool
	Reason  string
	Args    map[string]any
	Token   string
	Outcome string // "happened" or "rerun", for a question about a call whose outcome was lost
	Output  string // what happened, with "happened"
	// Grant is "allow for this run" with the approval: "args" (these
	// arguments) or "any" (any arguments) for the tool's later calls.
	Grant string
	// approver is the named approver token's name, for the record.
	approver string
}

// alreadyAnswered is the 409 of a request answered before.
func alreadyAnswered(w httpx.ResponseWriter, decision []byte) {
	if decision == nil {
		decision = []byte(`{"decision":"unknown"}`)
	}
	worker.WriteJSON(w, httpx.StatusConflict, map[string]any{
		"error":    worker.APIError{Code: "already_answered", Message: "this request was already answered; nothing ran"},
		"decision": json.RawMessage(decision),
	})
}

// serveApprove is POST /approve: {"ok": bool, "reason"?: string, "args"?:
// object, "grant"?: "args"|"any" (allow the tool for the rest of the run:
// these arguments, or any), "outcome"?: "happened"|"rerun", "output"?:
// string, "approverToken"?: string} (or the X-Approver-Token header; a
// named token's name is the record's approver) ⇒ 200
// {"status": "answered", "decision"}: the answer is in the run's journal,
// and the run's executor goes on; 401 approver_token, 409
// already_answered (with the standing decision), 400 invalid_args (the
// edit does not fit the tool's schema: nothing recorded) or
// invalid_field, and openLink's codes.
func serveApprove(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	opts := h.Options()
	securePage(w)
	_, store, l, ok := openLinkRequest(h, w, r)
	if !ok {
		return
	}
	doc, err := worker.ReadJSONBody(r)
	if err != nil {
		worker.WriteBodyError(w, err)
		return
	}
	var in approveBody
	if err := worker.ReadBodyObject(doc, true,
		jsonx.Field{Name: "ok", Read: jsonx.BoolPtr(&in.Ok)},
		jsonx.Field{Name: "reason", Read: jsonx.String(&in.Reason)},
		jsonx.Field{Name: "args", Read: jsonx.Map(&in.Args)},
		jsonx.Field{Name: "approverToken", Read: jsonx.String(&in.Token)},
		jsonx.Field{Name: "outcome", Read: jsonx.String(&in.Outcome)},
		jsonx.Field{Name: "output", Read: jsonx.String(&in.Output)},
		jsonx.Field{Name: "grant", Read: jsonx.String(&in.Grant)},
	); err != nil {
		worker.WriteBodyError(w, err)
		return
	}
	if want := opts.Getenv("APPROVER_TOKEN"); want != "" {
		got := r.Header.Get("X-Approver-Token")
		if got == "" {
			got = in.Token
		}
		name, ok := worker.Approver(want, got)
		if !ok {
			worker.WriteError(w, httpx.StatusUnauthorized, "approver_token", "this Worker asks approvers for its approver token: it is missing or wrong; nothing was recorded")
			return
		}
		in.approver = name
	}
	if in.Ok == nil {
		worker.WriteError(w, httpx.StatusBadRequest, "missing_field", `"ok" is required (true approves, false declines)`)
		return
	}
	rec, found, err := getRun(r.Context(), store, l.Run, l.Req)
	if !runFound(h, w, found, err) {
		return
	}
	if rec.Decision != nil {
		alreadyAnswered(w, rec.Decision)
		return
	}
	p := gjson.ParseBytes(rec.Public).Get("pending")
	if p.Get("id").String() != l.Req || argsDigest(p.Get("args").Raw) != l.Digest {
		alreadyAnswered(w, nil)
		return
	}
	var req core.Request
	if err := req.UnmarshalJSON([]byte(p.Get("request").Raw)); err != nil {
		h.InternalError(w, err)
		return
	}
	answer, decision, bad := decide(req, in, opts.Now())
	if bad != nil {
		worker.WriteError(w, httpx.StatusBadRequest, bad.Code, bad.Message)
		return
	}
	if answer.Data == nil {
		answer.Data = map[string]any{}
	}
	answer.Data[approval.FromKey] = approval.FromLink
	if in.approver != "" {
		answer.Data[approval.ApproverKey] = in.approver
		decision["approver"] = in.approver
	}
	dec, err := worker.MarshalJSON(decision)
	if err != nil {
		h.InternalError(w, err)
		return
	}
	step, err := answerStep(answer, req.Kind, "link", opts.Now())
	if err != nil {
		h.InternalError(w, err)
		return
	}
	won, standing, err := store.Answer(context.WithoutCancel(r.Context()), l.Run, l.Req, dec, step)
	if err != nil {
		opts.Logf("worker: run store: %v", err)
		worker.WriteError(w, httpx.StatusServiceUnavailable, "run_store", "could not record the answer; retry")
		return
	}
	if !won {
		alreadyAnswered(w, standing)
		return
	}
	worker.WriteJSON(w, httpx.StatusOK, map[string]any{"status": "answered", "decision": json.RawMessage(dec)})
}

// decide turns the body of POST /approve into the Answer to req and the
// decision the run records: approved, edited (with the arguments) or
// declined (with the reason); for a question about a call whose outcome
// was lost (core.KindOutcomeUnknown), happened (with its result), rerun or
// failed. A body that does not fit req (an edit that fails the tool's
// schema, an edit or an outcome where none is asked) is the 400 error it
// returns; nothing is recorded then.
func decide(req core.Request, in approveBody, now time.Time) (core.Answer, map[string]any, *worker.APIError) {
	answer := core.Answer{ID: req.ID, Ok: *in.Ok, Reason: in.Reason}
	decision := map[string]any{"decision": "declined", "at": now.UTC().Format(time.RFC3339)}
	if in.Reason != "" && !*in.Ok {
		decision["reason"] = in.Reason
	}
	if req.Kind == core.KindOutcomeUnknown {
		switch {
		case in.Args != nil:
			return answer, nil, &worker.APIError{Code: "invalid_field", Message: `"args" cannot answer whether a call happened; nothing was recorded`}
		case !*in.Ok:
			decision["decision"] = "failed"
		case in.Outcome == "rerun":
			answer = core.AnswerRunAgain(req.ID)
			decision["decision"] = "rerun"
		case in.Outcome == "" || in.Outcome == "happened":
			answer = core.AnswerOutcome(req.ID, in.Output)
			decision["decision"], decision["output"] = "happened", in.Output
		default:
			return answer, nil, &worker.APIError{Code: "invalid_field", Message: `"outcome" must be "happened" or "rerun" (or "ok": false: it did not happen); nothing was recorded`}
		}
		return answer, decision, nil
	}
	if in.Outcome != "" || in.Output != "" {
		return answer, nil, &worker.APIError{Code: "invalid_field", Message: `"outcome" and "output" answer only whether a call happened; nothing was recorded`}
	}
	if *in.Ok {
		decision["decision"] = "approved"
		answer.Data = map[string]any{}
		if in.Args != nil {
			answer.Data["args"] = in.Args
			decision["decision"] = "edited"
			decision["args"] = in.Args
		}
		if in.Grant != "" {
			answer.Data[approval.GrantKey] = in.Grant
			decision["grant"] = in.Grant
		}
	} else if in.Grant != "" {
		return answer, nil, &worker.APIError{Code: "invalid_field", Message: `"grant" goes with an approval ("ok": true); nothing was recorded`}
	}
	if err := core.CheckApprovalEdit(req, answer); err != nil {
		return answer, nil, &worker.APIError{Code: "invalid_args", Message: err.Error() + "; nothing was recorded: fix the arguments and answer again"}
	}
	return answer, decision, nil
}

// answerStep is the journal's entry of answer to a request of kind, by
// by, with its event and the run's state after it: running again.
func answerStep(answer core.Answer, kind, by string, now time.Time) (worker.RunStep, error) {
	e := journal.AnswerEntry(answer, by)
	e.At = now.UnixMilli()
	text, err := e.AppendJSON(nil)
	if err != nil {
		return worker.RunStep{}, err
	}
	ev, err := worker.MarshalJSON(map[string]any{"type": "answer", "id": answer.ID, "decision": decisionWord(answer, kind), "by": by})
	if err != nil {
		return worker.RunStep{}, err
	}
	public := []byte(`{"status":"running","step":{"kind":"starting"},"progressAt":"` + now.UTC().Format(time.RFC3339) + `"}`)
	return worker.RunStep{Key: e.Key(), Entry: text, Events: []worker.RunEvent{{Type: "answer", Data: ev}}, Public: public}, nil
}
