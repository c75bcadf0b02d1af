package worker

import (
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// metrics counts requests and runs for GET /metrics (Prometheus text
// format 0.0.4).
//
//   - On Workers one Go instance serves every request of an isolate
//     (Serve), so the counters cover what that isolate's instance served
//     since it started: Cloudflare runs many isolates and starts new ones,
//     so across a deployment use the per-request log line or Workers
//     Analytics; natively (go run ./wasm/worker) they cover the process.
type metrics struct {
	mu     sync.Mutex
	series map[string]int // a sample's name and labels → its count
	// requests is each request series' text by route and status, made
	// once: every request counts one.
	requests map[routeStatus]string
}

type routeStatus struct {
	route  string
	status int
}

// workerFamilies are the counter families, in the order (also their names')
// they are written.
var workerFamilies = [...]struct{ name, help string }{
	{"toolnexus_worker_agent_events_total", "Model calls, tool calls and runs of agent teams by agent path and kind."},
	{"toolnexus_worker_requests_total", "HTTP requests by route and status."},
	{"toolnexus_worker_runs_total", "Agent runs by endpoint and result status."},
	{"toolnexus_worker_state_refused_total", "State tokens refused by reason."},
}

func newMetrics() *metrics {
	return &metrics{series: map[string]int{}, requests: map[routeStatus]string{}}
}

func (m *metrics) count(series string) {
	m.mu.Lock()
	m.series[series]++
	m.mu.Unlock()
}

func (m *metrics) request(route string, status int) {
	k := routeStatus{route, status}
	m.mu.Lock()
	series, ok := m.requests[k]
	if !ok {
		series = "toolnexus_worker_requests_total{route=" + strconv.Quote(route) + ",code=" + strconv.Quote(strconv.Itoa(status)) + "}"
		m.requests[k] = series
	}
	m.series[series]++
	m.mu.Unlock()
}

func (m *metrics) run(endpoint, status string) {
	m.count("toolnexus_worker_runs_total{endpoint=" + strconv.Quote(endpoint) + ",status=" + strconv.Quote(status) + "}")
}

// agent counts one of core's metric events (kind "llm", "tool" or "run")
// of the agent at path ("support/billing").
func (m *metrics) agent(path, kind string) {
	m.count("toolnexus_worker_agent_events_total{path=" + strconv.Quote(path) + ",kind=" + strconv.Quote(kind) + "}")
}

func (m *metrics) refusedState(code string) {
	m.count("toolnexus_worker_state_refused_total{reason=" + strconv.Quote(code) + "}")
}

// writeTo renders the counters, each family sorted by its labels: the
// sample texts sort as their label values do, since a label value's closing
// quote sorts before the letters, digits and _ they are made of.
func (m *metrics) writeTo(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(m.series))
	for k := range m.series {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, f := range workerFamilies {
		b.WriteString("# HELP " + f.name + " " + f.help + "\n# TYPE " + f.name + " counter\n")
		for _, k := range keys {
			if strings.HasPrefix(k, f.name+"{") {
				b.WriteString(k + " " + strconv.Itoa(m.series[k]) + "\n")
			}
		}
	}
	io.WriteString(w, b.String())
}
