package worker

import (
	"net/http"

	"github.com/toolnexus/wasm/core"
)

// What a product mounted on the handler (gateway, mcpserver, teams,
// uiproto, runs) uses of it, beside Options, Handle, NewToolkit,
// RequestToolkit, BeginJSON, ReadBodyObject, RequestConfig, RunAgent and
// ErrAnswered, FinishRun, RunErrorBody, Spend, NewSealer, WriteJSON,
// WriteError, WriteConfigError, MarshalJSON, RandomHex, FinishReason,
// QuoteClip, Redact, ParseAgents, the team seam (teamrunner.go), the route
// keys (UIStreamRoute, runs_routes.go), and for durable runs ServeRun,
// ServeResume, DecodeRunRequest, ReadJSONBody, WriteBodyError, OriginOf and
// the RunStore (runs_store.go).

// CountRun counts one run of endpoint that ended with status
// (toolnexus_worker_runs_total).
func (h *Handler) CountRun(endpoint, status string) { h.metrics.run(endpoint, status) }

// RunResponse is the body of a finished run (FinishRun): its RunResult
// and, when it halted, the sealed state token.
type RunResponse = runResponse

// InternalError logs err and answers 500 internal, naming nothing.
func (h *Handler) InternalError(w http.ResponseWriter, err error) { h.internalError(w, err) }

// CoreMetrics is the registry the core clients of every request report to
// (OnMetric), served on GET /metrics.
func (h *Handler) CoreMetrics() *core.MetricsRegistry { return h.coreMetrics }

// SSEWriter writes server-sent events, one Write per event (sseWriter).
type SSEWriter = sseWriter

// NewSSEWriter returns an SSEWriter on w.
func NewSSEWriter(w http.ResponseWriter) *SSEWriter { return newSSEWriter(w) }

// Send writes b, whole events, and flushes them (write).
func (s *sseWriter) Send(b []byte) error { return s.write(b) }

// Err is the first write error: the client went away.
func (s *sseWriter) Err() error { return s.err }

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
