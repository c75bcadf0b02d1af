package core

import (
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolnexus/wasm/internal/promtext"
)

// MetricEvent is one observation handed to ClientOptions.OnMetric.
type MetricEvent struct {
	Kind     string        `json:"kind"` // "llm", "tool" or "run"
	Model    string        `json:"model,omitempty"`
	Tool     string        `json:"tool,omitempty"`
	Source   string        `json:"source,omitempty"`
	Status   string        `json:"status,omitempty"` // llm: HTTP status, "error" or "cancelled"; run: the run status
	Duration time.Duration `json:"duration"`
	IsError  bool          `json:"isError,omitempty"`
	// Pending marks a tool call that suspended: not a result, not an error.
	Pending bool `json:"pending,omitempty"`
	// Args are a tool call's arguments as they ran (kind "tool"), and
	// OriginalArgs what the model asked for when an approval edited them.
	Args         string `json:"args,omitempty"`
	OriginalArgs string `json:"originalArgs,omitempty"`
	Usage        Usage  `json:"usage,omitempty"`
	Err          string `json:"error,omitempty"`

	// Turns and ToolCalls count a run's model calls and tool calls (kind
	// "run"); Go callers only.
	Turns     int `json:"-"`
	ToolCalls int `json:"-"`

	// The Go port's names for the fields above, filled when the event is
	// handed to OnMetric (they stay out of the JSON, which has them
	// already). They stay while core/agents' events embed MetricEvent;
	// port code reads them through package toolnexus.
	//
	// Deprecated: use Kind.
	Event string `json:"-"`
	// Deprecated: use Duration.
	Ms int64 `json:"-"`
	// Deprecated: use Usage.PromptTokens.
	PromptTokens int `json:"-"`
	// Deprecated: use Usage.CompletionTokens.
	CompletionTokens int `json:"-"`
	// Deprecated: use Usage.TotalTokens.
	TotalTokens int `json:"-"`
	// Deprecated: use Err.
	Error string `json:"-"`
}

// withPortFields fills the Go port's fields of e from core's.
func (e MetricEvent) withPortFields() MetricEvent {
	e.Event, e.Ms, e.Error = e.Kind, e.Duration.Milliseconds(), e.Err
	e.PromptTokens, e.CompletionTokens, e.TotalTokens = e.Usage.PromptTokens, e.Usage.CompletionTokens, e.Usage.TotalTokens
	return e
}

// durationBuckets are the histogram bounds in seconds, from a fast tool to
// a slow model.
var durationBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// MetricsRegistry keeps counters and histograms of MetricEvents and renders
// them in the Prometheus text format. Every Client keeps one for
// Client.Metrics; a program that runs many clients (a server that makes one
// per request) shares one registry through OnMetric and renders it once:
//
//	reg := core.NewMetricsRegistry()
//	client := core.CreateClient(core.ClientOptions{OnMetric: reg.Record /* … */})
//	// later, for GET /metrics:
//	reg.WriteText(w)
//
// The series and their text are internal/promtext's. It is safe for
// concurrent use.
type MetricsRegistry struct {
	mu  sync.Mutex
	reg *promtext.Registry
}

var metricHelp = map[string]string{
	"toolnexus_llm_requests_total":           "Provider requests by model and status.",
	"toolnexus_llm_tokens_total":             "Tokens reported by the provider, by type.",
	"toolnexus_llm_request_duration_seconds": "Provider request latency.",
	"toolnexus_tool_calls_total":             "Finished tool calls (suspensions excluded).",
	"toolnexus_tool_duration_seconds":        "Tool call latency.",
	"toolnexus_run_errors_total":             "Runs that ended with an error.",
}

// NewMetricsRegistry returns an empty registry.
func NewMetricsRegistry() *MetricsRegistry {
	return &MetricsRegistry{reg: promtext.New(durationBuckets, metricHelp)}
}

// Record folds one event into the counters; its signature fits
// ClientOptions.OnMetric. A suspended tool call (Pending) is not counted.
func (m *MetricsRegistry) Record(e MetricEvent) {
	secs := e.Duration.Seconds()
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.reg
	switch e.Kind {
	case "llm":
		r.Add("toolnexus_llm_requests_total", r.Labels(promtext.LabelSet{"model", e.Model, "status", e.Status}), 1)
		r.Observe("toolnexus_llm_request_duration_seconds", r.Labels(promtext.LabelSet{"model", e.Model}), secs)
		if e.Usage.PromptTokens > 0 {
			r.Add("toolnexus_llm_tokens_total", `type="prompt"`, float64(e.Usage.PromptTokens))
		}
		if e.Usage.CompletionTokens > 0 {
			r.Add("toolnexus_llm_tokens_total", `type="completion"`, float64(e.Usage.CompletionTokens))
		}
	case "tool":
		if e.Pending {
			return
		}
		r.Add("toolnexus_tool_calls_total", r.Labels(promtext.LabelSet{"tool", e.Tool, "source", e.Source, "is_error", strconv.FormatBool(e.IsError)}), 1)
		r.Observe("toolnexus_tool_duration_seconds", r.Labels(promtext.LabelSet{"tool", e.Tool}), secs)
	case "run":
		if e.Err != "" {
			r.Add("toolnexus_run_errors_total", r.Labels(promtext.LabelSet{"model", e.Model}), 1)
		}
	}
}

// Text renders the Prometheus text exposition format (0.0.4), families and
// series sorted so the output is stable.
func (m *MetricsRegistry) Text() string {
	var b strings.Builder
	m.WriteText(&b)
	return b.String()
}

// WriteText writes what Text returns to w.
func (m *MetricsRegistry) WriteText(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reg.WriteText(w)
}
