package worker

import (
	"net/http"

	"github.com/toolnexus/wasm/core"
)

// What a product mounted on the handler (gateway, mcpserver, teams, runs)
// uses of it, beside Options, NewToolkit, RequestToolkit, BeginJSON,
// ReadBodyObject, RequestConfig, RunErrorBody, WriteJSON, WriteError,
// WriteConfigError, MarshalJSON, RandomHex, FinishReason, QuoteClip,
// Redact, ParseAgents, the team seam (teamrunner.go), and for durable runs
// ServeRun, ServeResume, DecodeRunRequest, ReadJSONBody, WriteBodyError,
// NewSealer, OriginOf, the RunStore (runs_store.go) and the route keys
// (runs_routes.go).

// CountRun counts one run of endpoint that ended with status
// (toolnexus_worker_runs_total).
func (h *Handler) CountRun(endpoint, status string) { h.metrics.run(endpoint, status) }

// CoreMetrics is the registry the core clients of every request report to
// (OnMetric), served on GET /metrics.
func (h *Handler) CoreMetrics() *core.MetricsRegistry { return h.coreMetrics }

// SSEWriter writes server-sent events, one Write per event (sseWriter).
type SSEWriter = sseWriter

// NewSSEWriter returns an SSEWriter on w.
func NewSSEWriter(w http.ResponseWriter) *SSEWriter { return newSSEWriter(w) }

// Send writes b, whole events, and flushes them (write).
func (s *sseWriter) Send(b []byte) error { return s.write(b) }

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

// InternalError logs err and answers 500 internal; the answer tells
// nothing of err.
func (h *Handler) InternalError(w http.ResponseWriter, err error) { h.internalError(w, err) }
