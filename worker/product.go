package worker

import (
	"net/http"

	"github.com/toolnexus/wasm/core"
)

// What a product mounted on the handler (gateway, mcpserver, teams) uses
// of it, beside Options, NewToolkit, RequestToolkit, BeginJSON,
// ReadBodyObject, RequestConfig, RunErrorBody, WriteJSON, WriteError,
// WriteConfigError, MarshalJSON, RandomHex, FinishReason, QuoteClip,
// Redact, ParseAgents and the team seam (teamrunner.go).

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
