package runs

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"strings"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
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

// postWebhook tells APPROVAL_WEBHOOK about a halt on req: POST {run, tool,
// args, path, kind, approveURL, expiresAt, text} (text for Slack-style
// incoming webhooks), retried with backoff on a network error or a non-2xx
// answer.
func postWebhook(ctx context.Context, h *worker.Handler, run string, req *core.Request, approveURL, expiresAt string) {
	opts := h.Options()
	hook := strings.TrimSpace(opts.Getenv("APPROVAL_WEBHOOK"))
	if hook == "" {
		return
	}
	tool, _ := req.Data["tool"].(string)
	args := "{}"
	if req.Data["args"] != nil {
		if b, err := worker.MarshalJSON(req.Data["args"]); err == nil {
			args = string(b)
		}
	}
	who := tool
	var path []string
	if list, ok := req.Data["path"].([]any); ok {
		for _, p := range list {
			if s, ok := p.(string); ok {
				path = append(path, s)
			}
		}
	}
	if len(path) > 0 {
		who = strings.Join(path, " › ") + " › " + tool
	}
	body, err := worker.MarshalJSON(map[string]any{
		"run": run, "tool": tool, "args": json.RawMessage(args), "path": path,
		"kind": req.Kind, "approveURL": approveURL, "expiresAt": expiresAt,
		"text": webhookText(req, who, args) + " — " + approveURL,
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
		resp, err := transport.Do(actx, &core.HTTPRequest{Method: httpx.MethodPost, URL: hook, Header: map[string]string{"content-type": "application/json"}, Body: body})
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

// webhookText is the one line a chat webhook shows.
func webhookText(req *core.Request, who, args string) string {
	if req.Kind == core.KindOutcomeUnknown {
		return "Did this happen? " + who + " " + args + " was running when the run stopped"
	}
	return "Approval needed: " + who + " " + args
}
