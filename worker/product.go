package worker

import (
	"context"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
)

// What a product mounted on the handler (gateway, mcpserver, teams,
// uiproto, runs) uses of it, beside Options, Handle, NewToolkit,
// RequestToolkit, BeginJSON, ReadBodyObject, RequestConfig, RunAgent and
// ErrAnswered, FinishRun and RunResponse, RunErrorBody, InternalError,
// Spend, SSEWriter, NewSealer, WriteJSON, WriteError, WriteConfigError,
// MarshalJSON, RandomHex, FinishReason, QuoteClip, Redact, ParseAgents,
// the team seam (teamrunner.go), the route keys (UIStreamRoute,
// runs_routes.go), and for durable runs ServeRun, ServeResume,
// DecodeRunRequest, ReadJSONBody, WriteBodyError, OriginOf and the
// RunStore (runs_store.go).

// CountRun counts one run of endpoint that ended with status
// (toolnexus_worker_runs_total).
func (h *Handler) CountRun(endpoint, status string) { h.metrics.run(endpoint, status) }

// CoreMetrics is the registry the core clients of every request report to
// (OnMetric), served on GET /metrics.
func (h *Handler) CoreMetrics() *core.MetricsRegistry { return h.coreMetrics }

// Err is the first write error: the client went away.
func (s *SSEWriter) Err() error { return s.err }

// WithEnv returns a copy of h whose Getenv reads value for the setting
// name: worker/runs has /v1/resume seal a halted run's token with the
// approval link's lifetime (STATE_TTL_SECONDS).
func (h *Handler) WithEnv(name, value string) *Handler {
	bound := *h
	getenv := h.opts.Getenv
	bound.opts.Getenv = func(n string) string {
		if n == name {
			return value
		}
		return getenv(n)
	}
	return &bound
}

// SetRunExecutor registers what runs a durable run (worker/runs): on
// Workers the RunLog's alarm calls it through DriveRun, natively the
// MemoryRunStore's goroutine does.
func (h *Handler) SetRunExecutor(run func(h *Handler, ctx context.Context, id string) (again bool)) {
	h.runExecutor = run
	if m, ok := h.opts.Runs().(*MemoryRunStore); ok {
		m.SetExecutor(func(id string) bool { return h.DriveRun(context.Background(), id) })
	}
}

// DriveRun runs durable run id from its journal until it halts or ends, on
// the options bound to ctx (Options.Bind): the executor's platform entry.
// It reports again when it stopped for time before the run halted or
// ended; without an executor (worker/runs not mounted) it does nothing.
func (h *Handler) DriveRun(ctx context.Context, id string) (again bool) {
	if h.runExecutor == nil {
		return false
	}
	if h.opts.Bind != nil {
		bound := *h
		bound.opts = h.opts.Bind(ctx, h.opts)
		h = &bound
	}
	return h.runExecutor(h, ctx, id)
}

// CheckWorkspace answers 400 and reports false when a request names an
// invalid workspace (the built-ins' file system).
func CheckWorkspace(w httpx.ResponseWriter, id string) bool { return checkWorkspace(w, id) }
