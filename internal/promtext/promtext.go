// Package promtext keeps counters and histograms by name and label set and
// writes them in the Prometheus text exposition format (0.0.4). core's
// MetricsRegistry folds its metric events into one.
//
// It is written by hand: a Prometheus client library would cost the wasm
// build more than the whole agent loop. It is not safe for concurrent use:
// its owner locks.
package promtext

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"sort"
	"strconv"
	"strings"
)

// Registry holds the series. The zero value is not ready: use New.
type Registry struct {
	buckets    []float64
	help       map[string]string
	counters   map[string]map[string]float64 // name → labels → value
	histograms map[string]map[string]*histogram
	// rendered keeps each label set's text: the same few (model, status,
	// tool) recur every turn, and rendering them was a fifth of a turn's
	// Go time natively.
	rendered map[LabelSet]string
}

// LabelSet is up to three label pairs, unused ones empty.
type LabelSet [6]string

// maxRendered bounds rendered: past it label sets are rendered each time.
const maxRendered = 1024

type histogram struct {
	counts []uint64 // per bucket, cumulative when written
	sum    float64
	count  uint64
}

// New returns an empty registry whose histograms have the given bucket
// bounds and whose families have the given help texts.
func New(buckets []float64, help map[string]string) *Registry {
	return &Registry{buckets: buckets, help: help, counters: map[string]map[string]float64{}, histograms: map[string]map[string]*histogram{}}
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

// Labels is ls rendered, once per registry.
func (m *Registry) Labels(ls LabelSet) string {
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
			m.rendered = map[LabelSet]string{}
		}
		m.rendered[ls] = s
	}
	return s
}

// Add adds v to the counter name{lbl}.
func (m *Registry) Add(name, lbl string, v float64) {
	if m.counters[name] == nil {
		m.counters[name] = map[string]float64{}
	}
	m.counters[name][lbl] += v
}

// Observe records v in the histogram name{lbl}.
func (m *Registry) Observe(name, lbl string, v float64) {
	if m.histograms[name] == nil {
		m.histograms[name] = map[string]*histogram{}
	}
	h := m.histograms[name][lbl]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(m.buckets))}
		m.histograms[name][lbl] = h
	}
	for i, b := range m.buckets {
		if v <= b {
			h.counts[i]++
		}
	}
	h.sum += v
	h.count++
}

// WriteText writes every family and series, sorted so the output is
// stable.
func (m *Registry) WriteText(w io.Writer) {
	var b strings.Builder
	for _, name := range sortedKeys(m.counters) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s counter\n", name, m.help[name], name)
		for _, lbl := range sortedKeys(m.counters[name]) {
			fmt.Fprintf(&b, "%s{%s} %s\n", name, lbl, strconv.FormatFloat(m.counters[name][lbl], 'g', -1, 64))
		}
	}
	for _, name := range sortedKeys(m.histograms) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s histogram\n", name, m.help[name], name)
		for _, lbl := range sortedKeys(m.histograms[name]) {
			h := m.histograms[name][lbl]
			for i, bound := range m.buckets {
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
