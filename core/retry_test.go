package core

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRetryAfterParsing(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"0", 0},
		{"3", 3 * time.Second},
		{"1.5", -1},
		{"Wed, 21 Oct 2026 07:28:00 GMT", -1},
		{"", -1},
		{"-1", -1},
		{"99999", maxRetryDelay},
		{"1234567890123", -1},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.in); got != tt.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestBackoffGrowsWithJitter(t *testing.T) {
	for attempt := 0; attempt < 4; attempt++ {
		base := time.Duration(100<<attempt) * time.Millisecond
		for i := 0; i < 20; i++ {
			d := backoff(100, attempt)
			if d < base/2 || d > base*3/2 {
				t.Fatalf("backoff(100, %d) = %v, want within ±50%% of %v", attempt, d, base)
			}
		}
	}
}

func TestRetries(t *testing.T) {
	ok := turn{Text: "finally"}
	tests := []struct {
		name      string
		turns     []turn
		opts      ClientOptions
		wantCalls int
		wantErr   string
	}{
		{"429 with Retry-After 0 then success", []turn{{Status: 429, Raw: "slow down", Header: map[string]string{"retry-after": "0"}}, ok}, ClientOptions{RetryBaseMs: 10_000}, 2, ""},
		{"fractional Retry-After falls back to backoff", []turn{{Status: 503, Raw: "x", Header: map[string]string{"retry-after": "1.5"}}, ok}, ClientOptions{RetryBaseMs: 1}, 2, ""},
		{"date Retry-After falls back to backoff", []turn{{Status: 429, Raw: "x", Header: map[string]string{"retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"}}, ok}, ClientOptions{RetryBaseMs: 1}, 2, ""},
		{"500, 502 then success", []turn{{Status: 500, Raw: "a"}, {Status: 502, Raw: "b"}, ok}, ClientOptions{RetryBaseMs: 1}, 3, ""},
		{"network error retried", []turn{{Err: errors.New("connection reset by peer")}, ok}, ClientOptions{RetryBaseMs: 1}, 2, ""},
		{"retries exhausted", []turn{{Status: 504, Raw: "a"}, {Status: 504, Raw: "b"}, {Status: 504, Raw: "c"}}, ClientOptions{RetryBaseMs: 1}, 3, "LLM 504: c"},
		{"400 is not retried", []turn{{Status: 400, Raw: "bad request"}}, ClientOptions{RetryBaseMs: 1}, 1, "LLM 400"},
		{"negative Retries disables", []turn{{Status: 503, Raw: "a"}}, ClientOptions{Retries: -1}, 1, "LLM 503"},
		{"OnError retries a 400", []turn{{Status: 400, Raw: "flaky"}, ok}, ClientOptions{RetryBaseMs: 1, ClassifyError: func(err error, attempt int) ErrorAction { return ErrorRetry }}, 2, ""},
		{"OnError fails a 503", []turn{{Status: 503, Raw: "a"}}, ClientOptions{RetryBaseMs: 1, ClassifyError: func(err error, attempt int) ErrorAction { return ErrorFail }}, 1, "LLM 503"},
		{"OnError is bounded by Retries", []turn{{Status: 400, Raw: "a"}, {Status: 400, Raw: "b"}}, ClientOptions{Retries: 1, RetryBaseMs: 1, ClassifyError: func(error, int) ErrorAction { return ErrorRetry }}, 2, "LLM 400: b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newScripted(t, StyleOpenAI, tt.turns...)
			start := time.Now()
			res, err := m.client(tt.opts).Run(context.Background(), "hi", mustToolkit(t))
			if len(m.sent()) != tt.wantCalls {
				t.Fatalf("provider called %d times, want %d", len(m.sent()), tt.wantCalls)
			}
			if tt.wantErr == "" && (err != nil || res.Text != "finally") {
				t.Fatalf("res %+v err %v", res, err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if time.Since(start) > 5*time.Second {
				t.Fatalf("took %v: a retry waited far longer than asked", time.Since(start))
			}
		})
	}
}

func TestAbortDuringRetryWait(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Status: 503, Raw: "busy", Header: map[string]string{"retry-after": "30"}}, turn{Text: "never"})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := m.client(ClientOptions{}).Run(ctx, "hi", mustToolkit(t))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %v", err, time.Since(start))
	}
	if len(m.sent()) != 1 {
		t.Fatalf("an aborted wait must not send again (sent %d)", len(m.sent()))
	}
}

func TestTimeoutMsBoundsTheRun(t *testing.T) {
	slow := Tool{Name: "slow", Execute: func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
		<-tctx.Ctx.Done()
		return ToolResult{}, tctx.Ctx.Err()
	}}
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("s", "slow", "")}}, turn{Text: "x"})
	start := time.Now()
	_, err := m.client(ClientOptions{TimeoutMs: 50}).Run(context.Background(), "go", mustToolkit(t, slow))
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %v", err, time.Since(start))
	}
}
