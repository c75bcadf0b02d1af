package worker

import "github.com/toolnexus/wasm/core"

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
