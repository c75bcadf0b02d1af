package runs

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"net/http"
	"strings"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker"
)

// webhookAttempts and webhookTimeout bound the notice of one halt: a
// failing or hanging webhook costs the run nothing (its pending event is
// logged first) and at most attempts × (timeout + backoff) of the
// request's background time.
const (
	webhookAttempts = 3
	webhookTimeout  = 5 * time.Second
)

// postWebhook tells APPROVAL_WEBHOOK about a halt: POST {run, tool, args,
// path, approveURL, expiresAt, text} (text for Slack-style incoming
// webhooks), retried with backoff on a network error or a non-2xx answer.
func postWebhook(ctx context.Context, h *worker.Handler, run string, halt runHalt) {
	opts := h.Options()
	hook := strings.TrimSpace(opts.Getenv("APPROVAL_WEBHOOK"))
	if hook == "" {
		return
	}
	tool := halt.pending.Get("data.tool").String()
	args := halt.pending.Get("data.args").Raw
	if args == "" {
		args = "{}"
	}
	who := tool
	var path []string
	for _, p := range halt.pending.Get("data.path").Array() {
		path = append(path, p.String())
	}
	if len(path) > 0 {
		who = strings.Join(path, " › ") + " › " + tool
	}
	body, err := worker.MarshalJSON(map[string]any{
		"run": run, "tool": tool, "args": json.RawMessage(args), "path": path,
		"approveURL": halt.approveURL, "expiresAt": halt.expiresAt,
		"text": "Approval needed: " + who + " " + args + " — " + halt.approveURL,
	})
	if err != nil {
		return
	}
	transport := opts.Transport
	if transport == nil {
		transport = core.DefaultTransport()
	}
	backoff := 500 * time.Millisecond
	for attempt := 1; attempt <= webhookAttempts; attempt++ {
		actx, cancel := context.WithTimeout(ctx, webhookTimeout)
		resp, err := transport.Do(actx, &core.HTTPRequest{Method: http.MethodPost, URL: hook, Header: map[string]string{"content-type": "application/json"}, Body: body})
		status := 0
		if err == nil {
			status = resp.Status
			resp.Body.Close()
		}
		cancel()
		if err == nil && status >= 200 && status < 300 {
			return
		}
		opts.Logf("worker: approval webhook attempt %d failed (status %d)", attempt, status)
		if attempt < webhookAttempts {
			time.Sleep(backoff)
			backoff *= 2
		}
	}
}
