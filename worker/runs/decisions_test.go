package runs

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core/approval"
)

// The decision record of a durable run (issue 32): one entry per
// decision, from the run's journal, chained when read.

const (
	aliceToken = "alice-token-0123456789"
	bobToken   = "bob-token-9876543210ab"
)

func decisionsHarness(t *testing.T) *harness {
	return newHarness(t, func(env map[string]string) {
		env["APPROVAL_RULES"] = `[{"name": "sums", "tool": "add", "decision": "allow"}]`
		env["APPROVER_TOKEN"] = "alice:" + aliceToken + ",bob:" + bobToken
	})
}

// startChain starts a run of the scripted model's "chain:" prompt.
func startChain(t *testing.T, hs *harness, steps string) string {
	t.Helper()
	code, started := hs.Post("/v1/runs", map[string]any{"prompt": "chain: " + steps})
	if code != http.StatusAccepted {
		t.Fatalf("POST /v1/runs = %d %v", code, started)
	}
	return started["id"].(string)
}

// answer answers the run's pending request through its link.
func (hs *harness) answer(id, token string, body map[string]any) (string, map[string]any) {
	hs.t.Helper()
	p := hs.waitRun(id, "pending")["pending"].(map[string]any)
	link := linkPath(hs.t, p["approveURL"].(string))
	code, out := hs.Post(link, body, "X-Approver-Token", token)
	if code != http.StatusOK {
		hs.t.Fatalf("answer %v = %d %v", body, code, out)
	}
	// The answer set the run running: a later waitRun sees what follows.
	return link, p
}

type recordBody struct {
	Run       string           `json:"run"`
	Count     int              `json:"count"`
	Head      string           `json:"head"`
	Decisions []approval.Entry `json:"decisions"`
}

func (hs *harness) decisions(id string) recordBody {
	hs.t.Helper()
	rec := hs.Do("GET", "/v1/runs/"+id+"/decisions", "")
	if rec.Code != http.StatusOK {
		hs.t.Fatalf("GET decisions = %d %s", rec.Code, rec.Body)
	}
	var out recordBody
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		hs.t.Fatal(err)
	}
	// The JSON's entries decode with their arguments as written, so that
	// their hashes check.
	for i, raw := range jsonEntries(hs.t, rec.Body.Bytes()) {
		e, err := approval.DecodeEntry(raw)
		if err != nil {
			hs.t.Fatal(err)
		}
		out.Decisions[i] = e
	}
	return out
}

func jsonEntries(t *testing.T, body []byte) []json.RawMessage {
	var doc struct {
		Decisions []json.RawMessage `json:"decisions"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Decisions
}

// TestDurableRunRecord: a rule's allow, an edit through a link by a named
// approver and a decline by another are three entries that verify; a
// replayed approval adds none; a changed or removed entry fails verify,
// which names it.
func TestDurableRunRecord(t *testing.T) {
	hs := decisionsHarness(t)
	id := startChain(t, hs, `add {"a":2,"b":3} | refund {"order":42} | refund {"order":7}`)
	link, _ := hs.answer(id, aliceToken, map[string]any{"ok": true, "args": map[string]any{"order": 43}})
	hs.answer(id, bobToken, map[string]any{"ok": false, "reason": "order 7 was refunded by hand"})
	hs.waitRun(id, "done")

	rec := hs.decisions(id)
	var got []string
	for _, e := range rec.Decisions {
		got = append(got, e.Tool+" "+e.Decision+" by "+e.Rule+e.Approver+" from "+e.From)
	}
	want := "add allowed by sums from rule; refund edited by alice from link; refund declined by bob from link"
	if strings.Join(got, "; ") != want || rec.Count != 3 || rec.Run != id {
		t.Fatalf("record:\n%s\nwant\n%s", strings.Join(got, "; "), want)
	}
	edited := rec.Decisions[1]
	if string(edited.Asked) != `{"order":42}` || string(edited.Ran) != `{"order":43}` || edited.Run != id || edited.Request == "" {
		t.Errorf("edited entry = %+v", edited)
	}
	if rec.Decisions[2].Reason != "order 7 was refunded by hand" || rec.Decisions[2].Ran != nil {
		t.Errorf("declined entry = %+v", rec.Decisions[2])
	}
	if err := approval.Verify(rec.Decisions, rec.Head); err != nil {
		t.Fatal(err)
	}
	// JSON Lines, the head in a header.
	lines := hs.Do("GET", "/v1/runs/"+id+"/decisions?format=jsonl", "")
	entries, err := approval.ParseJSONL(lines.Body.Bytes())
	if err != nil || len(entries) != 3 || lines.Header().Get("Content-Type") != "application/jsonl; charset=utf-8" {
		t.Fatalf("JSONL: %v %d %q", err, len(entries), lines.Header().Get("Content-Type"))
	}
	if err := approval.Verify(entries, lines.Header().Get("X-Decisions-Head")); err != nil {
		t.Fatal(err)
	}
	// A replayed approval is refused and adds no entry.
	if code, _ := hs.Post(link, map[string]any{"ok": true}, "X-Approver-Token", aliceToken); code != http.StatusConflict {
		t.Fatalf("replayed approval = %d", code)
	}
	if again := hs.decisions(id); again.Count != 3 || again.Head != rec.Head {
		t.Fatalf("after a replay: %d entries, head %s (was %s)", again.Count, again.Head, rec.Head)
	}
	// A changed or removed entry fails, named.
	changed := append([]approval.Entry(nil), entries...)
	changed[1].Approver = "mallory"
	var ve *approval.VerifyError
	if err := approval.Verify(changed, rec.Head); !errors.As(err, &ve) || ve.Index != 2 {
		t.Errorf("changed: %v", err)
	}
	removed := append(append([]approval.Entry(nil), entries[:1]...), entries[2:]...)
	if err := approval.Verify(removed, rec.Head); !errors.As(err, &ve) || ve.Index != 2 || ve.Seq != 3 {
		t.Errorf("removed: %v", err)
	}
	if hs.refunds.Load() != 1 {
		t.Errorf("%d refunds, want 1", hs.refunds.Load())
	}
}

// TestDurableRunGrant: "allow for this run" through the link approves the
// same call later and says so; other arguments ask; a revoked grant asks
// again; revoking is a decision of the record.
func TestDurableRunGrant(t *testing.T) {
	hs := decisionsHarness(t)
	id := startChain(t, hs, `refund {"order":42} | refund {"order":42} | refund {"order":7} | refund {"order":42}`)
	_, first := hs.answer(id, aliceToken, map[string]any{"ok": true, "grant": "args"})
	// The second refund of 42 runs on the grant; the refund of 7 asks.
	p := hs.waitRun(id, "pending")["pending"].(map[string]any)
	if p["args"].(map[string]any)["order"] != float64(7) {
		t.Fatalf("asked about %v, want order 7", p["args"])
	}
	code, revoked := hs.Post("/v1/runs/"+id+"/revoke", map[string]any{"grant": first["id"]})
	if code != http.StatusOK || revoked["status"] != "revoked" {
		t.Fatalf("revoke = %d %v", code, revoked)
	}
	if code, again := hs.Post("/v1/runs/"+id+"/revoke", map[string]any{"grant": first["id"]}); code != http.StatusNotFound {
		t.Fatalf("revoke again = %d %v", code, again)
	}
	hs.answer(id, bobToken, map[string]any{"ok": true})
	// The grant is gone: the last refund of 42 asks again.
	p = hs.waitRun(id, "pending")["pending"].(map[string]any)
	if p["args"].(map[string]any)["order"] != float64(42) {
		t.Fatalf("asked about %v, want order 42", p["args"])
	}
	hs.answer(id, aliceToken, map[string]any{"ok": true})
	hs.waitRun(id, "done")
	rec := hs.decisions(id)
	var words []string
	for _, e := range rec.Decisions {
		w := e.Decision + " " + e.Approver
		if e.GrantedBy != "" {
			w += " by grant " + map[bool]string{true: "of the first"}[e.GrantedBy == first["id"]]
		}
		if e.Grant != "" {
			w += " granting " + e.Grant
		}
		words = append(words, w)
	}
	want := "approved alice granting args, approved alice by grant of the first, revoked , approved bob, approved alice"
	if got := strings.Join(words, ", "); got != want {
		t.Fatalf("record:\n%s\nwant\n%s", got, want)
	}
	if err := approval.Verify(rec.Decisions, rec.Head); err != nil {
		t.Fatal(err)
	}
	if hs.refunds.Load() != 4 {
		t.Errorf("%d refunds, want 4", hs.refunds.Load())
	}
	if code, _ := hs.Post(linkPath(t, p["approveURL"].(string)), map[string]any{"ok": false, "grant": "any"}, "X-Approver-Token", aliceToken); code != http.StatusConflict {
		t.Errorf("an answered link = %d", code)
	}
}

// A broken APPROVAL_RULES starts no durable run.
func TestBadApprovalRulesStartNoRun(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["APPROVAL_RULES"] = `[{"tool": "refund"}]` })
	code, body := hs.Post("/v1/runs", map[string]any{"prompt": "refund order 42"})
	if code != http.StatusInternalServerError || !strings.Contains(body["error"].(map[string]any)["message"].(string), `APPROVAL_RULES rule 1: "decision" is required`) {
		t.Fatalf("POST /v1/runs = %d %v", code, body)
	}
	if n := len(hs.llm.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}
