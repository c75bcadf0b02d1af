package teams

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker"
)

// haltTeam runs the support team until billing's refund halts it.
func haltTeam(t *testing.T, hs *harness) map[string]any {
	t.Helper()
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "review order 42", "agent": "support"})
	if code != http.StatusOK || body["status"] != "pending" {
		t.Fatalf("run = %d %v", code, body)
	}
	p := body["pending"].(map[string]any)
	data := p["data"].(map[string]any)
	if got := fmt.Sprint(data["path"]); got != "[support billing]" {
		t.Errorf("pending.data.path = %s, want [support billing]", got)
	}
	if data["tool"] != "refund" || fmt.Sprint(data["args"]) != "map[order:42]" {
		t.Errorf("pending asks for %v %v, want refund {order: 42}", data["tool"], data["args"])
	}
	if body["agent"] != "support" || fmt.Sprint(body["path"]) != "[support]" {
		t.Errorf("result names agent %v path %v, want support [support]", body["agent"], body["path"])
	}
	if s, _ := body["state"].(string); !strings.HasPrefix(s, "tn1.") {
		t.Fatalf("no state token: %v", body)
	}
	if rows, _ := body["agents"].([]any); len(rows) != 2 {
		t.Errorf("agents = %v, want support and billing", body["agents"])
	}
	if hs.refunds.Load() != 0 {
		t.Fatal("refund ran before approval")
	}
	return body
}

func resumeBody(halted map[string]any, ok bool, reason string) map[string]any {
	return map[string]any{"state": halted["state"], "answer": map[string]any{"id": pendingID(halted), "ok": ok, "reason": reason}}
}

func TestAgentTeamApprovedRefundRunsOnceAndTheTreeIsDeleted(t *testing.T) {
	hs, trees := newTeamHarness(t)
	halted := haltTeam(t, hs)
	if trees.Len() != 1 {
		t.Fatalf("stored trees = %d, want 1", trees.Len())
	}
	code, body := hs.Post("/v1/resume", resumeBody(halted, true, ""))
	if code != http.StatusOK || body["status"] != "done" {
		t.Fatalf("resume = %d %v", code, body)
	}
	if body["text"] != "done: done: refunded order 42" {
		t.Errorf("text = %q: support should answer with billing's result", body["text"])
	}
	if hs.refunds.Load() != 1 {
		t.Errorf("refund ran %d times, want 1", hs.refunds.Load())
	}
	if trees.Len() != 0 {
		t.Errorf("stored trees after the run finished = %d, want 0", trees.Len())
	}
	code, body = hs.Post("/v1/resume", resumeBody(halted, true, ""))
	if code != http.StatusConflict || errCode(body) != "state_spent" {
		t.Errorf("second resume = %d %v, want 409 state_spent", code, body)
	}
	if hs.refunds.Load() != 1 {
		t.Errorf("refund ran %d times after a replay, want 1", hs.refunds.Load())
	}
}

func TestAgentTeamDeclineReachesBillingAndSupportAnswers(t *testing.T) {
	hs, trees := newTeamHarness(t)
	halted := haltTeam(t, hs)
	code, body := hs.Post("/v1/resume", resumeBody(halted, false, "past the refund window"))
	if code != http.StatusOK || body["status"] != "done" {
		t.Fatalf("resume = %d %v", code, body)
	}
	text, _ := body["text"].(string)
	// billing read the refusal as its tool result and answered; support
	// answered with billing's answer.
	if !strings.HasPrefix(text, "done: done: ") || !strings.Contains(text, "past the refund window") {
		t.Errorf("text = %q, want support's answer carrying billing's report of the decline", text)
	}
	if hs.refunds.Load() != 0 {
		t.Error("a declined refund ran")
	}
	if trees.Len() != 0 {
		t.Errorf("stored trees = %d, want 0", trees.Len())
	}
}

func TestAgentTeamConcurrentResumesRunOnce(t *testing.T) {
	hs, _ := newTeamHarness(t)
	halted := haltTeam(t, hs)
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _ = hs.Post("/v1/resume", resumeBody(halted, true, ""))
		}()
	}
	wg.Wait()
	ok, spent := 0, 0
	for _, c := range codes {
		switch c {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			spent++
		}
	}
	if ok != 1 || spent != 7 {
		t.Errorf("codes = %v, want one 200 and seven 409", codes)
	}
	if hs.refunds.Load() != 1 {
		t.Errorf("refund ran %d times, want 1", hs.refunds.Load())
	}
}

func TestAgentTeamExpiredTreeIsGone(t *testing.T) {
	hs, trees := newTeamHarness(t)
	halted := haltTeam(t, hs)
	hs.Advance(worker.DefaultStateTTL + worker.LedgerGrace + time.Second)
	if trees.Len() != 0 {
		t.Errorf("a tree outlived its token: %d stored", trees.Len())
	}
	code, body := hs.Post("/v1/resume", resumeBody(halted, true, ""))
	if code != http.StatusBadRequest || errCode(body) != "state_expired" {
		t.Errorf("resume of an expired token = %d %v", code, body)
	}
}

// A token whose tree is missing (the store lost it) is refused after it
// was spent, and nothing runs.
func TestAgentTeamMissingTreeIsGone(t *testing.T) {
	hs, _ := newTeamHarness(t)
	halted := haltTeam(t, hs)
	hs.trees = worker.NewMemoryTreeStore() // the store lost the tree
	code, body := hs.Post("/v1/resume", resumeBody(halted, true, ""))
	if code != http.StatusGone || errCode(body) != "state_gone" {
		t.Errorf("resume = %d %v, want 410 state_gone", code, body)
	}
	if hs.refunds.Load() != 0 {
		t.Error("refund ran without its tree")
	}
}

func TestAgentTeamRefusals(t *testing.T) {
	hs, _ := newTeamHarness(t)
	cases := []struct {
		body map[string]any
		code int
		want string
	}{
		{map[string]any{"prompt": "hi", "agent": "sales"}, http.StatusBadRequest, "unknown_agent"},
		{map[string]any{"prompt": "hi", "agent": "support", "messages": []any{map[string]any{"role": "user", "content": "x"}}}, http.StatusBadRequest, "unsupported_field"},
		{map[string]any{"prompt": "", "agent": "support"}, http.StatusBadRequest, "missing_field"},
	}
	for _, c := range cases {
		code, body := hs.Post("/v1/run", c.body)
		if code != c.code || errCode(body) != c.want {
			t.Errorf("%v = %d %v, want %d %s", c.body, code, body, c.code, c.want)
		}
	}
	hs.trees = nil
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "review order 42", "agent": "support"})
	if code != http.StatusServiceUnavailable || errCode(body) != "approvals_unavailable" {
		t.Errorf("run without a tree store = %d %v", code, body)
	}
}

func TestAgentTeamMetricsAndStreamCarryThePath(t *testing.T) {
	hs, _ := newTeamHarness(t)
	rec := hs.Do(http.MethodPost, "/v1/run", `{"prompt":"review order 42","agent":"support","stream":true}`)
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream = %d %s", rec.Code, rec.Header())
	}
	out := rec.Body.String()
	for _, want := range []string{
		`"type":"spawned","handle":"root/support.1/billing.1","path":["support","billing"]`,
		`"type":"suspended"`,
		"event: done\ndata: {\"agent\":\"support\",\"path\":[\"support\"],\"status\":\"pending\"",
		`"path":["support","billing"]`,
		`"state":"tn1.`,
		// core's stream events of each turn, labelled with the agent.
		"event: tool_call\ndata: {\"type\":\"tool_call\",\"name\":\"task\"",
		`"name":"refund","id":"call_1","args":"{\"order\":42}","handle":"root/support.1/billing.1","path":["support","billing"]}`,
		"event: pending\ndata: {\"type\":\"pending\"",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stream lacks %s:\n%s", want, out)
		}
	}
	// One request, one pending event: from the agent that asked (issue 26).
	if n := strings.Count(out, "event: pending\n"); n != 1 {
		t.Errorf("%d pending events for one request, want 1:\n%s", n, out)
	}
	if _, ev, _ := strings.Cut(out, "event: pending\n"); !strings.HasSuffix(strings.SplitN(ev, "\n", 2)[0], `"handle":"root/support.1/billing.1","path":["support","billing"]}`) {
		t.Errorf("the pending event is not billing's:\n%s", out)
	}
	metrics := hs.Do(http.MethodGet, "/metrics", "").Body.String()
	for _, want := range []string{
		`toolnexus_worker_agent_events_total{path="support",kind="llm"} 1`,
		`toolnexus_worker_agent_events_total{path="support/billing",kind="llm"} 1`,
		`toolnexus_worker_runs_total{endpoint="run",status="pending"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s:\n%s", want, metrics)
		}
	}
}

// A leaf that needs a second approval after the first halts the team again:
// a new token and a new stored tree, the first token's tree gone.
func TestAgentTeamHaltsAgainWithANewToken(t *testing.T) {
	hs, trees := newTeamHarness(t)
	code, first := hs.Post("/v1/run", map[string]any{"prompt": "review orders 42 and 43", "agent": "support"})
	if code != http.StatusOK || first["status"] != "pending" {
		t.Fatalf("run = %d %v", code, first)
	}
	code, second := hs.Post("/v1/resume", resumeBody(first, true, ""))
	if code != http.StatusOK || second["status"] != "pending" {
		t.Fatalf("first resume = %d %v, want pending for order 43", code, second)
	}
	data := second["pending"].(map[string]any)["data"].(map[string]any)
	if fmt.Sprint(data["path"]) != "[support billing]" || fmt.Sprint(data["args"]) != "map[order:43]" {
		t.Errorf("second halt asks %v from %v", data["args"], data["path"])
	}
	if second["state"] == first["state"] || trees.Len() != 1 {
		t.Errorf("want a new token and one stored tree; same token: %v, trees: %d", second["state"] == first["state"], trees.Len())
	}
	if hs.refunds.Load() != 1 {
		t.Errorf("refunds = %d after the first approval, want 1", hs.refunds.Load())
	}
	code, done := hs.Post("/v1/resume", resumeBody(second, true, ""))
	if code != http.StatusOK || done["status"] != "done" || done["text"] != "done: done: refunded order 43" {
		t.Fatalf("second resume = %d %v", code, done)
	}
	if hs.refunds.Load() != 2 || trees.Len() != 0 {
		t.Errorf("refunds = %d, trees = %d; want 2 and 0", hs.refunds.Load(), trees.Len())
	}
}

// A tree that names an agent AGENTS no longer declares cannot be restored:
// 409, and nothing runs.
func TestAgentTeamUnrestorableAfterAGENTSChanged(t *testing.T) {
	hs, _ := newTeamHarness(t)
	halted := haltTeam(t, hs)
	hs.env["AGENTS"] = `[{"name": "support", "team": ["accounts"]}, {"name": "accounts", "tools": ["refund"]}]`
	code, body := hs.Post("/v1/resume", resumeBody(halted, true, ""))
	if code != http.StatusConflict || errCode(body) != "state_unrestorable" {
		t.Errorf("resume = %d %v, want 409 state_unrestorable", code, body)
	}
	if hs.refunds.Load() != 0 {
		t.Error("refund ran")
	}
}

// A team whose model never answers is stopped at LLM_TIMEOUT_SECONDS (504)
// within moments, and nothing is stored.
func TestAgentTeamTimesOut(t *testing.T) {
	hs, trees := newTeamHarness(t)
	hs.env["LLM_TIMEOUT_SECONDS"] = "1"
	hs.transport = core.TransportFunc(func(ctx context.Context, _ *core.HTTPRequest) (*core.HTTPResponse, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	start := time.Now()
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "review order 42", "agent": "support"})
	if code != http.StatusGatewayTimeout || errCode(body) != "upstream_timeout" {
		t.Errorf("run = %d %v, want 504 upstream_timeout", code, body)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the run took %v", d)
	}
	if trees.Len() != 0 {
		t.Errorf("stored trees = %d", trees.Len())
	}
}

// With MCP_CONFIG set the tool set is only known per request: an unknown
// tool name passes the load and is refused when a request builds the team.
func TestAgentsToolCheckedPerRequestWithMCP(t *testing.T) {
	hs, _ := newTeamHarness(t)
	hs.env["AGENTS"] = `[{"name": "a", "tools": ["docs_search"]}]`
	hs.env["MCP_CONFIG"] = `{"mcpServers": {}}`
	if rec := hs.Do(http.MethodGet, "/readyz", ""); rec.Code != http.StatusOK {
		t.Fatalf("readyz = %d %s", rec.Code, rec.Body.String())
	}
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "hi", "agent": "a"})
	if code != http.StatusInternalServerError || errCode(body) != "config" || !strings.Contains(body["error"].(map[string]any)["message"].(string), `tool "docs_search" is not offered by this Worker now`) {
		t.Errorf("run = %d %v", code, body)
	}
}
