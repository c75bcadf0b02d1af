package core

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
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
// It is written by hand: a Prometheus client library would cost the wasm
// build more than the whole loop. It is safe for concurrent use.
type MetricsRegistry struct {
	mu         sync.Mutex
	counters   map[string]map[string]float64 // name → labels → value
	histograms map[string]map[string]*histogram
	// rendered keeps each label set's text: the same few (model, status,
	// tool) recur every turn, and rendering them was a fifth of a turn's
	// Go time natively.
	rendered map[labelSet]string
}

// labelSet is up to three label pairs, unused ones empty.
type labelSet [6]string

// maxRendered bounds rendered: past it label sets are rendered each time.
const maxRendered = 1024

type histogram struct {
	counts []uint64 // per bucket, cumulative when written
	sum    float64
	count  uint64
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
	return &MetricsRegistry{counters: map[string]map[string]float64{}, histograms: map[string]map[string]*histogram{}}
}

// labels renders label pairs in the order given.
func labels(kv ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(kv[i])
		b.WriteString(`="`)
		writeLabelValue(&b, kv[i+1])
		b.WriteByte('"')
	}
	return b.String()
}

// writeLabelValue escapes \, " and newlines as the text format requires.
// By hand: a strings.Replacer per label was a quarter of the loop's CPU.
func writeLabelValue(b *strings.Builder, v string) {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\', '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteByte(c)
		}
	}
}

// render is labels of ls, rendered once per registry; m.mu is held.
func (m *MetricsRegistry) render(ls labelSet) string {
	if s, ok := m.rendered[ls]; ok {
		return s
	}
	n := len(ls)
	for n > 0 && ls[n-2] == "" {
		n -= 2
	}
	s := labels(ls[:n]...)
	if len(m.rendered) < maxRendered {
		if m.rendered == nil {
			m.rendered = map[labelSet]string{}
		}
		m.rendered[ls] = s
	}
	return s
}

// add and observe are called with m.mu held.
func (m *MetricsRegistry) add(name, lbl string, v float64) {
	if m.counters[name] == nil {
		m.counters[name] = map[string]float64{}
	}
	m.counters[name][lbl] += v
}

func (m *MetricsRegistry) observe(name, lbl string, seconds float64) {
	if m.histograms[name] == nil {
		m.histograms[name] = map[string]*histogram{}
	}
	h := m.histograms[name][lbl]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(durationBuckets))}
		m.histograms[name][lbl] = h
	}
	for i, b := range durationBuckets {
		if seconds <= b {
			h.counts[i]++
		}
	}
	h.sum += seconds
	h.count++
}

// Record folds one event into the counters; its signature fits
// ClientOptions.OnMetric. A suspended tool call (Pending) is not counted.
func (m *MetricsRegistry) Record(e MetricEvent) {
	secs := e.Duration.Seconds()
	m.mu.Lock()
	defer m.mu.Unlock()
	switch e.Kind {
	case "llm":
		m.add("toolnexus_llm_requests_total", m.render(labelSet{"model", e.Model, "status", e.Status}), 1)
		m.observe("toolnexus_llm_request_duration_seconds", m.render(labelSet{"model", e.Model}), secs)
		if e.Usage.PromptTokens > 0 {
			m.add("toolnexus_llm_tokens_total", `type="prompt"`, float64(e.Usage.PromptTokens))
		}
		if e.Usage.CompletionTokens > 0 {
			m.add("toolnexus_llm_tokens_total", `type="completion"`, float64(e.Usage.CompletionTokens))
		}
	case "tool":
		if e.Pending {
			return
		}
		m.add("toolnexus_tool_calls_total", m.render(labelSet{"tool", e.Tool, "source", e.Source, "is_error", strconv.FormatBool(e.IsError)}), 1)
		m.observe("toolnexus_tool_duration_seconds", m.render(labelSet{"tool", e.Tool}), secs)
	case "run":
		if e.Err != "" {
			m.add("toolnexus_run_errors_total", m.render(labelSet{"model", e.Model}), 1)
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
	var b strings.Builder
	for _, name := range sortedKeys(m.counters) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s counter\n", name, metricHelp[name], name)
		for _, lbl := range sortedKeys(m.counters[name]) {
			fmt.Fprintf(&b, "%s{%s} %s\n", name, lbl, strconv.FormatFloat(m.counters[name][lbl], 'g', -1, 64))
		}
	}
	for _, name := range sortedKeys(m.histograms) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s histogram\n", name, metricHelp[name], name)
		for _, lbl := range sortedKeys(m.histograms[name]) {
			h := m.histograms[name][lbl]
			for i, bound := range durationBuckets {
				fmt.Fprintf(&b, "%s_bucket{%s,le=\"%s\"} %d\n", name, lbl, strconv.FormatFloat(bound, 'g', -1, 64), h.counts[i])
			}
			fmt.Fprintf(&b, "%s_bucket{%s,le=\"+Inf\"} %d\n", name, lbl, h.count)
			fmt.Fprintf(&b, "%s_sum{%s} %s\n%s_count{%s} %d\n", name, lbl, strconv.FormatFloat(h.sum, 'g', -1, 64), name, lbl, h.count)
		}
	}
	io.WriteString(w, b.String())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
