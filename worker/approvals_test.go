package worker

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core/approval"
)

// A broken APPROVAL_RULES names every problem at once — each rule's, and
// a rule naming a tool this Worker does not offer (rule 3) — and nothing is served
// while it is there: /readyz says so, every route that would run answers
// 500 config naming them all, and nothing calls the model.
func TestApprovalRulesMisconfiguredServesNothing(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["APPROVAL_RULES"] = `[
		 {"tool": "refund", "decision": "sometimes"},
		 {"tool": "refund", "when": [{"path": "amount", "op": "<=", "value": "fifty"}], "decision": "allow"},
		 {"tool": "refnd", "decision": "deny"},
		 {"tool": "add", "decision": "allow", "colour": "blue"}
		]`
	})
	want := []string{
		`rule 1: \"decision\" must be allow, deny or ask, not \"sometimes\"`,
		`rule 2: condition 1: \"value\" of <= must be a number`,
		`rule 4: \"colour\" is not a known field`,
		`rule 3: tool \"refnd\" is not offered by this Worker`,
	}
	rec := hs.Do(http.MethodGet, "/readyz", "")
	for _, w := range want {
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"setting":"APPROVAL_RULES","problem":"`+w) {
			t.Errorf("readyz = %d %s\nlacks %s", rec.Code, rec.Body.String(), w)
		}
	}
	for _, path := range []string{"/v1/run", "/v1/resume"} {
		code, body := hs.Post(path, map[string]any{"prompt": "refund order 42", "state": "tn1.x.y", "answer": map[string]any{"id": "r", "ok": true}})
		msg, _ := body["error"].(map[string]any)["message"].(string)
		if code != http.StatusInternalServerError || errCode(body) != "config" || strings.Count(msg, "APPROVAL_RULES rule") != 4 {
			t.Errorf("POST %s = %d %v", path, code, body)
		}
	}
	if rec := hs.Do(http.MethodGet, "/v1/tools", ""); rec.Code != http.StatusInternalServerError {
		t.Errorf("GET /v1/tools = %d", rec.Code)
	}
	if n := len(hs.llm.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
	// Once the rules parse, a rule naming a tool the Worker does not offer
	// is named too (the tool set is fixed: no MCP, A2A or skills).
	hs.env["APPROVAL_RULES"] = `[{"tool": "refnd", "decision": "deny"}, {"tool": "delete_*", "decision": "deny"}]`
	if rec := hs.Do(http.MethodGet, "/readyz", ""); !strings.Contains(rec.Body.String(), `rule 1: tool \"refnd\" is not offered by this Worker`) || strings.Contains(rec.Body.String(), "rule 2") {
		t.Errorf("readyz = %s", rec.Body.String())
	}
}

// TestApprovalRulesOnTheStatelessAPI: the rules decide /v1/run's calls,
// and the decisions ride in the result, chained, with their head.
func TestApprovalRulesOnTheStatelessAPI(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["APPROVAL_RULES"] = `[{"name": "order 42", "tool": "refund", "when": [{"path": "order", "op": "==", "value": 42}], "decision": "allow"},
		 {"name": "no sums", "tool": "add", "decision": "deny", "reason": "do the sum yourself"}]`
	})
	rec := hs.Do(http.MethodPost, "/v1/run", `{"prompt": "refund order 42"}`)
	var res RunResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != http.StatusOK || res.Status != "done" {
		t.Fatalf("run = %d %s", rec.Code, rec.Body)
	}
	var raw struct {
		Decisions []json.RawMessage `json:"decisions"`
	}
	json.Unmarshal(rec.Body.Bytes(), &raw)
	if len(raw.Decisions) != 1 {
		t.Fatalf("decisions %s", rec.Body)
	}
	e, err := approval.DecodeEntry(raw.Decisions[0])
	if err != nil || e.Decision != approval.Allowed || e.Rule != "order 42" || e.Seq != 1 {
		t.Fatalf("entry %+v %v", e, err)
	}
	if err := approval.Verify([]approval.Entry{e}, res.DecisionsHead); err != nil {
		t.Fatal(err)
	}
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "add 2 and 3"})
	if code != http.StatusOK || !strings.Contains(body["text"].(string), "denied: do the sum yourself") {
		t.Fatalf("denied run = %d %v", code, body)
	}
}

// A caller's answer cannot name its approver or where it came from: the
// Worker says (api).
func TestResumeAnswerCannotClaimAnApprover(t *testing.T) {
	hs := newHarness(t, nil)
	code, halted := hs.Post("/v1/run", map[string]any{"prompt": "refund order 42"})
	if code != http.StatusOK || halted["status"] != "pending" {
		t.Fatalf("run = %d %v", code, halted)
	}
	code, done := hs.Post("/v1/resume", map[string]any{"state": halted["state"], "answer": map[string]any{
		"id": pendingID(halted), "ok": true, "data": map[string]any{"approver": "the CEO", "from": "tab"}}})
	if code != http.StatusOK {
		t.Fatalf("resume = %d %v", code, done)
	}
	d := done["decisions"].([]any)[0].(map[string]any)
	if d["approver"] != nil || d["from"] != "api" || d["decision"] != "approved" {
		t.Errorf("entry %v", d)
	}
}

func TestApproverTokens(t *testing.T) {
	named := "alice:alice-token-0123456789, bob:bob-token-9876543210ab"
	for _, c := range []struct {
		setting, got, name string
		ok                 bool
	}{
		{named, "alice-token-0123456789", "alice", true},
		{named, "bob-token-9876543210ab", "bob", true},
		{named, "bob", "", false},
		{named, "", "", false},
		{"one-plain-token", "one-plain-token", "", true},
		{"one-plain-token", "other", "", false},
		// A colon alone does not make a token named: the part after it is
		// too short to be a token.
		{"ops:short", "ops:short", "", true},
	} {
		name, ok := Approver(c.setting, c.got)
		if name != c.name || ok != c.ok {
			t.Errorf("Approver(%q, %q) = %q %v, want %q %v", c.setting, c.got, name, ok, c.name, c.ok)
		}
	}
}

func TestHTTPToolAlwaysAsks(t *testing.T) {
	decls, err := ParseHTTPTools(`[{"name": "wire", "url": "https://bank.example/wire", "needsApproval": "always"},
	 {"name": "look", "url": "https://bank.example/look", "needsApproval": false}]`)
	if err != nil || !decls[0].AlwaysAsk || !decls[0].NeedsApproval || decls[1].AlwaysAsk || decls[1].NeedsApproval {
		t.Fatalf("%+v %v", decls, err)
	}
	if _, err := ParseHTTPTools(`[{"name": "wire", "url": "https://bank.example/wire", "needsApproval": "sometimes"}]`); err == nil || !strings.Contains(err.Error(), `must be true, false or "always"`) {
		t.Errorf("err = %v", err)
	}
}
