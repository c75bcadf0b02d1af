package worker

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// metrics counts requests and runs for GET /metrics (Prometheus text
// format 0.0.4).
//
//   - On Workers, syumai/workers starts a fresh Go instance for every
//     request, so these counters only ever describe the instance serving
//     /metrics itself. They are meaningful natively (go run ./wasm/worker);
//     on Workers use the per-request log line or Workers Analytics instead.
type metrics struct {
	mu       sync.Mutex
	requests map[[2]string]int // route, HTTP status
	runs     map[[2]string]int // endpoint, run status or "error"
	refused  map[string]int    // state token refusal code
}

func newMetrics() *metrics {
	return &metrics{requests: map[[2]string]int{}, runs: map[[2]string]int{}, refused: map[string]int{}}
}

func (m *metrics) request(route string, status int) {
	m.mu.Lock()
	m.requests[[2]string{route, fmt.Sprint(status)}]++
	m.mu.Unlock()
}

func (m *metrics) run(endpoint, status string) {
	m.mu.Lock()
	m.runs[[2]string{endpoint, status}]++
	m.mu.Unlock()
}

func (m *metrics) refusedState(code string) {
	m.mu.Lock()
	m.refused[code]++
	m.mu.Unlock()
}

// writeTo renders the counters, each family sorted by its labels.
func (m *metrics) writeTo(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	b.WriteString("# HELP toolnexus_worker_requests_total HTTP requests by route and status.\n")
	b.WriteString("# TYPE toolnexus_worker_requests_total counter\n")
	for _, k := range sortedPairs(m.requests) {
		fmt.Fprintf(&b, "toolnexus_worker_requests_total{route=%q,code=%q} %d\n", k[0], k[1], m.requests[k])
	}
	b.WriteString("# HELP toolnexus_worker_runs_total Agent runs by endpoint and result status.\n")
	b.WriteString("# TYPE toolnexus_worker_runs_total counter\n")
	for _, k := range sortedPairs(m.runs) {
		fmt.Fprintf(&b, "toolnexus_worker_runs_total{endpoint=%q,status=%q} %d\n", k[0], k[1], m.runs[k])
	}
	b.WriteString("# HELP toolnexus_worker_state_refused_total State tokens refused by reason.\n")
	b.WriteString("# TYPE toolnexus_worker_state_refused_total counter\n")
	codes := make([]string, 0, len(m.refused))
	for c := range m.refused {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		fmt.Fprintf(&b, "toolnexus_worker_state_refused_total{reason=%q} %d\n", c, m.refused[c])
	}
	io.WriteString(w, b.String())
}

func sortedPairs(m map[[2]string]int) [][2]string {
	keys := make([][2]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Sort(pairs(keys))
	return keys
}

// pairs sorts label pairs with sort.Sort, whose code every build links
// anyway; sort.Slice would add its own copy and reflection.
type pairs [][2]string

func (p pairs) Len() int { return len(p) }
func (p pairs) Less(i, j int) bool {
	if p[i][0] != p[j][0] {
		return p[i][0] < p[j][0]
	}
	return p[i][1] < p[j][1]
}
func (p pairs) Swap(i, j int) { p[i], p[j] = p[j], p[i] }
