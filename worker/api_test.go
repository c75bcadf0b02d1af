package worker

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

func TestRunDoneWithHarmlessTool(t *testing.T) {
	hs := newHarness(t, nil)
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "please add 2 and 3"})
	if code != http.StatusOK || body["status"] != "done" {
		t.Fatalf("run = %d %v", code, body)
	}
	if body["text"] != "done: 5" || body["toolCallCount"] != float64(1) || body["state"] != nil {
		t.Fatalf("unexpected result: %v", body)
	}
}

// TestResumeDeclined is the decline path: the tool never runs and the model
// reads the reason.
func TestResumeDeclined(t *testing.T) {
	hs := newHarness(t, nil)
	code, run := hs.Post("/v1/run", map[string]any{"prompt": "refund my order"})
	if code != http.StatusOK || run["status"] != "pending" {
		t.Fatalf("run = %d %v", code, run)
	}
	state, _ := run["state"].(string)
	pending, _ := run["pending"].(map[string]any)
	if calls, ok := run["toolCalls"].([]any); !ok || len(calls) != 0 {
		t.Fatalf("toolCalls of a halted run = %#v, want []", run["toolCalls"])
	}
	if !strings.HasPrefix(state, "tn1.") || pending["kind"] != "approval" || pending["expiresAt"] == "" || run["stateExpiresAt"] == nil {
		t.Fatalf("pending result lacks state or request: %v", run)
	}
	data, _ := pending["data"].(map[string]any)
	if data["tool"] != "refund" {
		t.Fatalf("pending.data = %v", data)
	}
	code, res := hs.Post("/v1/resume", map[string]any{"state": state,
		"answer": map[string]any{"id": pendingID(run), "ok": false, "reason": "order is older than 90 days"}})
	if code != http.StatusOK || res["status"] != "done" {
		t.Fatalf("resume = %d %v", code, res)
	}
	if n := hs.refunds.Load(); n != 0 {
		t.Fatalf("declined refund ran %d times", n)
	}
	reqs := hs.llm.Requests()
	if last := reqs[len(reqs)-1]; !strings.Contains(last, "order is older than 90 days") {
		t.Fatalf("the model did not see the reason: %s", last)
	}
}

// TestResumeApprovedRunsOnce is the approval path: the tool runs exactly
// once, and the same token cannot run it again.
func TestResumeApprovedRunsOnce(t *testing.T) {
	hs := newHarness(t, nil)
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund order 42"})
	if hs.refunds.Load() != 0 {
		t.Fatal("refund ran before approval")
	}
	resume := map[string]any{"state": run["state"], "answer": map[string]any{"id": pendingID(run), "ok": true}}
	code, res := hs.Post("/v1/resume", resume)
	if code != http.StatusOK || res["status"] != "done" || res["text"] != "done: refunded order 42" {
		t.Fatalf("resume = %d %v", code, res)
	}
	if n := hs.refunds.Load(); n != 1 {
		t.Fatalf("refund ran %d times, want 1", n)
	}
	code, again := hs.Post("/v1/resume", resume)
	if code != http.StatusConflict || errCode(again) != "state_spent" {
		t.Fatalf("second resume = %d %v", code, again)
	}
	if n := hs.refunds.Load(); n != 1 {
		t.Fatalf("refund ran %d times after a reused token, want 1", n)
	}
}

// Without a ledger (a Worker deployed without the APPROVALS binding) a
// token could run its tool once per resume: every resume is refused
// instead, approve or decline, and nothing runs.
func TestResumeWithoutLedgerIsRefused(t *testing.T) {
	hs := newHarness(t, nil)
	hs.h.opts.Spent = func() SpentStore { return nil }
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund"})
	if run["status"] != "pending" {
		t.Fatalf("run = %v", run)
	}
	for _, ok := range []bool{true, true, false} {
		resume := map[string]any{"state": run["state"], "answer": map[string]any{"id": pendingID(run), "ok": ok}}
		code, res := hs.Post("/v1/resume", resume)
		if code != http.StatusServiceUnavailable || errCode(res) != "approvals_unavailable" {
			t.Fatalf("resume ok=%v = %d %v", ok, code, res)
		}
	}
	if n := hs.refunds.Load(); n != 0 {
		t.Fatalf("refund ran %d times without a ledger", n)
	}
	if n := len(hs.llm.Requests()); n != 1 {
		t.Fatalf("the model saw %d requests, want only the run's", n)
	}
}

// TestConcurrentResumesRunOnce: 8 approvals of one token at once: exactly
// one passes the ledger and runs, the rest are 409 and run nothing.
func TestConcurrentResumesRunOnce(t *testing.T) {
	hs := newHarness(t, nil)
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund"})
	codes := make(chan int, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resume := map[string]any{"state": run["state"], "answer": map[string]any{"id": pendingID(run), "ok": true}}
			code, _ := hs.Post("/v1/resume", resume)
			codes <- code
		}()
	}
	wg.Wait()
	close(codes)
	got := map[int]int{}
	for c := range codes {
		got[c]++
	}
	if got[http.StatusOK] != 1 || got[http.StatusConflict] != 7 {
		t.Fatalf("statuses %v, want one 200 and seven 409", got)
	}
	if n := hs.refunds.Load(); n != 1 {
		t.Fatalf("refund ran %d times, want 1", n)
	}
}

func TestRunWithHistory(t *testing.T) {
	hs := newHarness(t, nil)
	_, first := hs.Post("/v1/run", map[string]any{"prompt": "hi"})
	code, second := hs.Post("/v1/run", map[string]any{"prompt": "hi again", "messages": first["messages"]})
	msgs, _ := second["messages"].([]any)
	if code != http.StatusOK || len(msgs) != 4 {
		t.Fatalf("run with history = %d, %d messages: %v", code, len(msgs), second)
	}
}

func TestAnthropicStyle(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["LLM_STYLE"] = "anthropic"
		env["LLM_BASE_URL"] = strings.TrimSuffix(env["LLM_BASE_URL"], "/v1")
	})
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund"})
	if run["status"] != "pending" {
		t.Fatalf("run = %v", run)
	}
	code, res := hs.Post("/v1/resume", map[string]any{"state": run["state"], "answer": map[string]any{"id": pendingID(run), "ok": true}})
	if code != http.StatusOK || res["text"] != "done: refunded order 42" || hs.refunds.Load() != 1 {
		t.Fatalf("resume = %d %v (refunds %d)", code, res, hs.refunds.Load())
	}
	if got := hs.llm.APIKeys()[0]; got != testAPIKey {
		t.Fatalf("x-api-key = %q", got)
	}
}

func TestUpstreamFailureIs502(t *testing.T) {
	hs := newHarness(t, nil)
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "please fail"})
	e, _ := body["error"].(map[string]any)
	if code != http.StatusBadGateway || e["upstreamStatus"] != float64(503) || !strings.Contains(e["message"].(string), "503") {
		t.Fatalf("run = %d %v", code, body)
	}
}

func TestRetriesSetting(t *testing.T) {
	for _, tt := range []struct {
		setting string
		calls   int
	}{{"0", 1}, {"1", 2}} {
		hs := newHarness(t, func(env map[string]string) { env["LLM_RETRIES"] = tt.setting })
		if code, _ := hs.Post("/v1/run", map[string]any{"prompt": "please fail"}); code != http.StatusBadGateway {
			t.Fatalf("LLM_RETRIES=%s: code %d", tt.setting, code)
		}
		if n := len(hs.llm.Requests()); n != tt.calls {
			t.Fatalf("LLM_RETRIES=%s: %d model requests, want %d", tt.setting, n, tt.calls)
		}
	}
}

func TestUnreachableUpstreamIs502(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["LLM_BASE_URL"] = "http://127.0.0.1:1/v1" })
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "hi"})
	if code != http.StatusBadGateway || errCode(body) != "upstream_error" {
		t.Fatalf("run = %d %v", code, body)
	}
}

func TestToolsList(t *testing.T) {
	hs := newHarness(t, nil)
	rec := hs.Do(http.MethodGet, "/v1/tools", "")
	body := decodeMap(t, rec)
	tools, _ := body["tools"].([]any)
	if rec.Code != http.StatusOK || len(tools) != 2 {
		t.Fatalf("tools = %d %v", rec.Code, body)
	}
	refund, _ := tools[1].(map[string]any)
	if refund["name"] != "refund" || refund["needsApproval"] != true || refund["source"] != "native" || refund["inputSchema"] == nil {
		t.Fatalf("refund entry = %v", refund)
	}
}

func TestHealthAndMetrics(t *testing.T) {
	hs := newHarness(t, nil)
	if rec := hs.Do(http.MethodGet, "/healthz", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"ok"`) {
		t.Fatalf("healthz = %d %s", rec.Code, rec.Body)
	}
	hs.Post("/v1/run", map[string]any{"prompt": "refund"})
	rec := hs.Do(http.MethodGet, "/metrics", "")
	for _, want := range []string{
		`toolnexus_worker_requests_total{route="healthz",code="200"} 1`,
		`toolnexus_worker_runs_total{endpoint="run",status="pending"} 1`,
		"# TYPE toolnexus_worker_requests_total counter",
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("metrics lack %q:\n%s", want, rec.Body)
		}
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("metrics content type %q", ct)
	}
}

// TestUpstreamFailureAfterApprovedTool: the model fails after the approved
// tool ran, so the 502 carries the partial result saying that it ran.
func TestUpstreamFailureAfterApprovedTool(t *testing.T) {
	hs := newHarness(t, nil)
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund then fail"})
	code, body := hs.Post("/v1/resume", map[string]any{"state": run["state"], "answer": map[string]any{"id": pendingID(run), "ok": true}})
	result, _ := body["result"].(map[string]any)
	calls, _ := result["toolCalls"].([]any)
	if code != http.StatusBadGateway || len(calls) != 1 || hs.refunds.Load() != 1 {
		t.Fatalf("resume = %d %v (refunds %d)", code, body, hs.refunds.Load())
	}
	if call, _ := calls[0].(map[string]any); call["output"] != "refunded order 13" {
		t.Fatalf("partial tool call = %v", call)
	}
}

// TestResumeWithEditedArgs: an approval may change the arguments; an edit
// that does not fit the tool's schema is refused before the token is spent,
// and a fitting one runs and is recorded as edited.
func TestResumeWithEditedArgs(t *testing.T) {
	hs := newHarness(t, nil)
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund order 42"})
	pending, _ := run["pending"].(map[string]any)
	data, _ := pending["data"].(map[string]any)
	if schema, _ := data["schema"].(map[string]any); schema["properties"] == nil {
		t.Fatalf("the pending request carries no schema: %v", data)
	}
	resume := func(args any) (int, map[string]any) {
		return hs.Post("/v1/resume", map[string]any{"state": run["state"],
			"answer": map[string]any{"id": pendingID(run), "ok": true, "data": map[string]any{"args": args}}})
	}
	for _, bad := range []any{map[string]any{"order": "43"}, map[string]any{}, "order=43"} {
		code, res := resume(bad)
		if code != http.StatusBadRequest || errCode(res) != "invalid_args" {
			t.Fatalf("edit %v: resume = %d %v", bad, code, res)
		}
	}
	code, res := resume(map[string]any{"order": 43})
	if code != http.StatusOK || res["text"] != "done: refunded order 43" || hs.refunds.Load() != 1 {
		t.Fatalf("resume = %d %v (refunds %d)", code, res, hs.refunds.Load())
	}
	calls, _ := res["toolCalls"].([]any)
	rec, _ := calls[0].(map[string]any)
	if args, _ := rec["args"].(map[string]any); rec["edited"] != true || args["order"] != 43.0 {
		t.Fatalf("record = %v", rec)
	}
}
