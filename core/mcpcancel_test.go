package core

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestMCPCancelledNotification: a tools/call that times out, or whose
// caller cancels it, is followed by notifications/cancelled naming the
// request and why.
func TestMCPCancelledNotification(t *testing.T) {
	tests := []struct {
		name    string
		cancel  bool   // the caller cancels; else the server's timeout ends it
		timeout string // the server's, in ms: far off when the caller cancels
		output  string
		reason  string
	}{
		{"timed out", false, "300", "timed out", "timed out"},
		{"cancelled by the caller", true, "20000", "context canceled", "cancelled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newMemoryMCP(`{"name":"slow","inputSchema":{"type":"object"}}`, `{"name":"quick","inputSchema":{"type":"object"}}`)
			f.hang["slow"] = true
			tk, err := CreateToolkit(context.Background(), Options{MCP: f.config("h", `"timeout":`+tc.timeout), Transport: f})
			if err != nil {
				t.Fatal(err)
			}
			defer tk.Close()
			ctx := context.Background()
			if tc.cancel {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			res, _ := tk.Execute(ctx, "h_slow", nil)
			if !res.IsError || !strings.Contains(res.Output, tc.output) {
				t.Fatalf("result %+v", res)
			}
			n, ok := f.awaitNotification("notifications/cancelled", 5*time.Second)
			if !ok {
				t.Fatalf("no notifications/cancelled; received %v", f.methods())
			}
			callID := ""
			f.mu.Lock()
			for _, m := range f.received {
				if m.Get("method").String() == "tools/call" {
					callID = m.Get("id").Raw
				}
			}
			f.mu.Unlock()
			if n.Get("method").String() != "notifications/cancelled" || n.Get("params.requestId").Raw != callID || !strings.Contains(n.Get("params.reason").String(), tc.reason) {
				t.Errorf("notification %s, want notifications/cancelled for request %s (%s)", n.Raw, callID, tc.reason)
			}
			// A call that completes sends no such notification.
			if res, _ := tk.Execute(context.Background(), "h_quick", nil); res.IsError {
				t.Fatalf("quick: %+v", res)
			}
			if got := strings.Count(strings.Join(f.methods(), ","), "notifications/cancelled"); got != 1 {
				t.Errorf("%d cancellations sent: %v", got, f.methods())
			}
		})
	}
}
