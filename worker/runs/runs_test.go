package runs

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
)

// waitRun polls GET /v1/runs/{id} until its status is one of want.
func (hs *harness) waitRun(id string, want ...string) map[string]any {
	hs.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		rec := hs.Do("GET", "/v1/runs/"+id, "")
		body := decodeMap(hs.t, rec)
		for _, w := range want {
			if body["status"] == w {
				return body
			}
		}
		if time.Now().After(deadline) {
			hs.t.Fatalf("run %s stayed %v, want %v", id, body, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// linkPath turns an approveURL into the path and query the harness serves.
func linkPath(t *testing.T, approveURL string) string {
	u, err := url.Parse(approveURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

func startPending(t *testing.T, hs *harness) (string, map[string]any) {
	code, started := hs.Post("/v1/runs", map[string]any{"prompt": "refund order 42"})
	if code != http.StatusAccepted || started["status"] != "running" {
		t.Fatalf("POST /v1/runs = %d %v", code, started)
	}
	id, _ := started["id"].(string)
	if started["events"] != "/v1/runs/"+id+"/events" {
		t.Fatalf("events = %v", started["events"])
	}
	st := hs.waitRun(id, "pending")
	return id, st["pending"].(map[string]any)
}

// TestDurableRunApprovedWithEditThroughLink: the link's answer resumes the
// run with the edited arguments; a second answer is 409 with the decision.
func TestDurableRunApprovedWithEditThroughLink(t *testing.T) {
	hs := newHarness(t, nil)
	id, p := startPending(t, hs)
	if p["tool"] != "refund" || p["approveURL"] == nil || strings.Contains(hs.Do("GET", "/v1/runs/"+id, "").Body.String(), "tn1.") {
		t.Fatalf("pending = %v", p)
	}
	link := linkPath(t, p["approveURL"].(string))
	info := decodeMap(t, hs.Do("GET", link+"&view=json", ""))
	if info["status"] != "pending" || info["request"] == nil {
		t.Fatalf("link info = %v", info)
	}
	code, ans := hs.Post(link, map[string]any{"ok": true, "args": map[string]any{"order": 43}})
	if code != http.StatusOK || ans["status"] != "answered" {
		t.Fatalf("approve = %d %v", code, ans)
	}
	done := hs.waitRun(id, "done", "error")
	if done["status"] != "done" || hs.refunds.Load() != 1 {
		t.Fatalf("after approval: %v, refunds %d", done, hs.refunds.Load())
	}
	events := hs.Do("GET", "/v1/runs/"+id+"/events", "").Body.String()
	for _, want := range []string{"event: pending", `"originalArgs"`, `"order":43`, "event: done"} {
		if !strings.Contains(events, want) {
			t.Fatalf("events lack %q:\n%s", want, events)
		}
	}
	if strings.Contains(events, `"messages"`) || strings.Contains(events, "tn1.") {
		t.Fatalf("events reveal the transcript:\n%s", events)
	}
	code, again := hs.Post(link, map[string]any{"ok": false})
	if code != http.StatusConflict || again["decision"].(map[string]any)["decision"] != "edited" {
		t.Fatalf("second answer = %d %v", code, again)
	}
	// Replayed after Last-Event-ID: only what follows.
	rec := hs.Do("GET", "/v1/runs/"+id+"/events", "", "Last-Event-ID", "1")
	if strings.Contains(rec.Body.String(), "id: 1\n") || !strings.Contains(rec.Body.String(), "event: done") {
		t.Fatalf("resumed events:\n%s", rec.Body.String())
	}
}

func TestDurableRunDeclineReachesModel(t *testing.T) {
	hs := newHarness(t, nil)
	id, p := startPending(t, hs)
	code, _ := hs.Post(linkPath(t, p["approveURL"].(string)), map[string]any{"ok": false, "reason": "past the refund window"})
	if code != http.StatusOK {
		t.Fatalf("decline = %d", code)
	}
	hs.waitRun(id, "done")
	reqs := hs.llm.Requests()
	if !strings.Contains(reqs[len(reqs)-1], "past the refund window") || hs.refunds.Load() != 0 {
		t.Fatalf("the model did not read the reason (refunds %d)", hs.refunds.Load())
	}
}

func TestApprovalLinkRefusals(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["APPROVER_TOKEN"] = "approver-secret-1" })
	_, p := startPending(t, hs)
	link := linkPath(t, p["approveURL"].(string))
	tampered := strings.Replace(link, "run=run_", "run=run_0", 1)
	for _, c := range []struct {
		path, token string
		want        int
	}{
		{"/approve?run=x", "approver-secret-1", http.StatusBadRequest},
		{tampered, "approver-secret-1", http.StatusForbidden},
		{strings.Replace(link, "d=", "d=0", 1), "approver-secret-1", http.StatusForbidden},
		{link, "", http.StatusUnauthorized},
		{link, "wrong", http.StatusUnauthorized},
	} {
		rec := hs.Do("POST", c.path, `{"ok":true}`, "X-Approver-Token", c.token)
		if rec.Code != c.want {
			t.Errorf("POST %s token %q = %d %s, want %d", c.path, c.token, rec.Code, rec.Body, c.want)
		}
	}
	// Racing approvers: exactly one wins.
	var wg sync.WaitGroup
	codes := make([]int, 6)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = hs.Do("POST", link, `{"ok":true}`, "X-Approver-Token", "approver-secret-1").Code
		}()
	}
	wg.Wait()
	won := 0
	for _, c := range codes {
		if c == http.StatusOK {
			won++
		} else if c != http.StatusConflict {
			t.Errorf("racing answer = %d", c)
		}
	}
	if won != 1 {
		t.Fatalf("racing answers %v: %d won", codes, won)
	}
	hs.Advance(25 * time.Hour)
	if rec := hs.Do("GET", link+"&view=json", ""); rec.Code != http.StatusGone {
		t.Fatalf("expired link = %d", rec.Code)
	}
}

func TestDurableRunBadInput(t *testing.T) {
	hs := newHarness(t, nil)
	if rec := hs.Do("GET", "/v1/runs/run_00000000000000000000000000000000", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown run = %d", rec.Code)
	}
	if rec := hs.Do("GET", "/v1/runs/nope/events", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown run events = %d", rec.Code)
	}
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	if rec := hs.Do("POST", "/v1/runs", `{"prompt":"hi","messages":`+deep+`}`); rec.Code != http.StatusBadRequest {
		t.Fatalf("deep body = %d", rec.Code)
	}
	if rec := hs.Do("POST", "/v1/runs", `{"prompt":""}`); rec.Code != http.StatusBadRequest {
		t.Fatalf("empty prompt = %d", rec.Code)
	}
}

// TestWebhookToldOfEachHalt: APPROVAL_WEBHOOK gets the link once per halt,
// retried after a failure.
func TestWebhookToldOfEachHalt(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	const hookURL = "http://hook.test/in"
	hs := newHarness(t, func(env map[string]string) { env["APPROVAL_WEBHOOK"] = hookURL })
	inner := hs.transport
	if inner == nil {
		inner = core.DefaultTransport()
	}
	hs.transport = core.TransportFunc(func(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
		if req.URL != hookURL {
			return inner.Do(ctx, req)
		}
		mu.Lock()
		calls = append(calls, string(req.Body))
		n := len(calls)
		mu.Unlock()
		status := http.StatusOK
		if n == 1 {
			status = http.StatusInternalServerError
		}
		return &core.HTTPResponse{Status: status, Body: io.NopCloser(strings.NewReader(""))}, nil
	})
	_, p := startPending(t, hs)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(calls)
		mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 2 || !strings.Contains(calls[1], `"tool":"refund"`) || !strings.Contains(calls[1], `"approveURL":`) || !strings.Contains(calls[1], `"text":`) {
		t.Fatalf("webhook calls = %q (link %v)", calls, p["approveURL"])
	}
}
