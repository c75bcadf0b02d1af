package worker

import (
	"strconv"
	"strings"
	"sync"
)

// promMerge sums Prometheus text expositions: the metrics of the core
// clients (core.Client.Metrics) of every request this instance served. A
// client lives for one request, so /metrics folds each one in when its
// request ends. Counters, histogram buckets, sums and counts all add up.
//
// On Workers one Go instance serves every request of an isolate (Serve),
// so the sums cover what that isolate served since its instance started;
// natively (go run ./wasm/worker) they cover the process.
type promMerge struct {
	mu       sync.Mutex
	families []*promFamily
	byName   map[string]*promFamily
}

type promFamily struct {
	name   string
	header []string // the # HELP and # TYPE lines
	series []string // sample names with labels, in first-seen order
	values map[string]float64
}

func newPromMerge() *promMerge { return &promMerge{byName: map[string]*promFamily{}} }

// fold adds one exposition. Lines that are not "# HELP", "# TYPE" or
// "<sample> <value>" are skipped; a sample before any # TYPE line forms a
// family of its own.
func (m *promMerge) fold(text string) {
	if text == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var cur *promFamily
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			f := strings.Fields(line)
			if len(f) < 3 || (f[1] != "HELP" && f[1] != "TYPE") {
				continue
			}
			cur = m.family(f[2])
			if len(cur.header) < 2 && !containsString(cur.header, line) {
				cur.header = append(cur.header, line)
			}
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i <= 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		series := line[:i]
		f := cur
		if f == nil {
			name := series
			if j := strings.IndexByte(name, '{'); j >= 0 {
				name = name[:j]
			}
			f = m.family(name)
		}
		if _, seen := f.values[series]; !seen {
			f.series = append(f.series, series)
		}
		f.values[series] += v
	}
}

func (m *promMerge) family(name string) *promFamily {
	f := m.byName[name]
	if f == nil {
		f = &promFamily{name: name, values: map[string]float64{}}
		m.byName[name] = f
		m.families = append(m.families, f)
	}
	return f
}

// text renders the sums, families in first-seen order.
func (m *promMerge) text() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	for _, f := range m.families {
		for _, h := range f.header {
			b.WriteString(h)
			b.WriteByte('\n')
		}
		for _, s := range f.series {
			b.WriteString(s)
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(f.values[s], 'g', -1, 64))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
