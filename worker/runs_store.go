package worker

import (
	"context"
	"sync"
	"time"
)

// The store of durable runs is here, not in worker/runs, which serves them,
// because Options.Runs binds it: internal/cfworker supplies the RunLog
// Durable Object behind it.

// RunsBinding is the Durable Object binding of durable runs (class RunLog,
// worker/js/runs.mjs): one object per run id holds the run's state, its
// event log and the answers to its requests.
const RunsBinding = "RUNS"

// RunRecord is what a RunStore keeps of one run besides its events.
type RunRecord struct {
	// Public is GET /v1/runs/{id}'s body (JSON).
	Public []byte
	// Secret is the sealed state token of a halted run (it carries the
	// transcript); empty otherwise. It never leaves the Worker.
	Secret string
	// Decision is the answer recorded for the request asked about (JSON),
	// nil when there is none.
	Decision []byte
}

// RunEvent is one entry of a run's event log.
type RunEvent struct {
	Seq  int
	Type string
	Data []byte
}

// RunStore keeps durable runs (POST /v1/runs, worker/runs).
//
//   - On Workers it is the RunLog Durable Object bound as RUNS
//     (internal/cfworker/runs_js.go): one object per run, SQLite-backed, so a run outlives
//     its caller and the Worker's isolate.
//   - Natively it is a MemoryRunStore (one process).
type RunStore interface {
	// Create starts the record of run id with its public state; the store
	// may forget it after until.
	Create(ctx context.Context, id string, public []byte, until time.Time) error
	// Put replaces the public state and the secret ("" deletes it).
	Put(ctx context.Context, id string, public []byte, secret string) error
	// Get returns the record (Decision: the one recorded for req), or
	// ok false when there is no such run.
	Get(ctx context.Context, id, req string) (rec RunRecord, ok bool, err error)
	// Append adds one event to the log and wakes the watchers.
	Append(ctx context.Context, id, typ string, data []byte) error
	// Events returns the events after seq after, waiting up to wait for
	// the first one; ended reports that a done or error event is logged.
	Events(ctx context.Context, id string, after int, wait time.Duration) (events []RunEvent, ended bool, err error)
	// Answer records decision for request req unless one is recorded:
	// of racing calls exactly one wins; the others get the winner's.
	Answer(ctx context.Context, id, req string, decision []byte) (won bool, standing []byte, err error)
}

// MemoryRunStore is a RunStore in process memory, for native runs and
// tests.
type MemoryRunStore struct {
	mu   sync.Mutex
	runs map[string]*memoryRun
}

type memoryRun struct {
	public  []byte
	secret  string
	events  []RunEvent
	ended   bool
	answers map[string][]byte
	wake    chan struct{} // closed and replaced on every append
}

// NewMemoryRunStore returns an empty store.
func NewMemoryRunStore() *MemoryRunStore { return &MemoryRunStore{runs: map[string]*memoryRun{}} }

func (m *MemoryRunStore) Create(_ context.Context, id string, public []byte, _ time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs[id] == nil {
		m.runs[id] = &memoryRun{public: public, answers: map[string][]byte{}, wake: make(chan struct{})}
	}
	return nil
}

func (m *MemoryRunStore) run(id string) *memoryRun {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[id]
}

func (m *MemoryRunStore) Put(_ context.Context, id string, public []byte, secret string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.runs[id]; r != nil {
		r.public, r.secret = public, secret
	}
	return nil
}

func (m *MemoryRunStore) Get(_ context.Context, id, req string) (RunRecord, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[id]
	if r == nil {
		return RunRecord{}, false, nil
	}
	return RunRecord{Public: r.public, Secret: r.secret, Decision: r.answers[req]}, true, nil
}

func (m *MemoryRunStore) Append(_ context.Context, id, typ string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[id]
	if r == nil {
		return nil
	}
	r.events = append(r.events, RunEvent{Seq: len(r.events) + 1, Type: typ, Data: data})
	if typ == "done" || typ == "error" {
		r.ended = true
	}
	close(r.wake)
	r.wake = make(chan struct{})
	return nil
}

func (m *MemoryRunStore) Events(ctx context.Context, id string, after int, wait time.Duration) ([]RunEvent, bool, error) {
	read := func() ([]RunEvent, bool, chan struct{}) {
		m.mu.Lock()
		defer m.mu.Unlock()
		r := m.runs[id]
		if r == nil {
			return nil, true, nil
		}
		after := max(after, 0)
		if after >= len(r.events) {
			return nil, r.ended, r.wake
		}
		return append([]RunEvent(nil), r.events[after:]...), r.ended, r.wake
	}
	evs, ended, wake := read()
	if len(evs) > 0 || ended || wait <= 0 {
		return evs, ended, nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-wake:
	case <-t.C:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	evs, ended, _ = read()
	return evs, ended, nil
}

func (m *MemoryRunStore) Answer(_ context.Context, id, req string, decision []byte) (bool, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[id]
	if r == nil {
		return false, nil, nil
	}
	if d, ok := r.answers[req]; ok {
		return false, d, nil
	}
	r.answers[req] = decision
	return true, decision, nil
}
