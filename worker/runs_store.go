package worker

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/toolnexus/wasm/core/journal"
)

// The store of durable runs is here, not in worker/runs, which serves them,
// because Options.Runs binds it: worker/cfworker supplies the RunLog
// Durable Object behind it.

// RunsBinding is the Durable Object binding of durable runs (class RunLog,
// worker/js/runs.mjs): one object per run id holds the run's journal, its
// event log, its public state and the answers to its requests, and runs
// the run itself (its alarm calls the executor, worker/runs).
const RunsBinding = "RUNS"

// RunRecord is what GET /v1/runs/{id} and the approval links read of a run.
type RunRecord struct {
	// Public is GET /v1/runs/{id}'s body (JSON).
	Public []byte
	// Meta is what the run was started with besides its journal (JSON:
	// the origin its links name, …).
	Meta []byte
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

// RunStart is a new run: its first journal entry and what else it keeps.
type RunStart struct {
	Entry  []byte // the journal's start entry (JSON)
	Public []byte
	Meta   []byte
	Until  time.Time // the store may forget the run after this
}

// RunStep is one journal entry of a run with what it changes: the events
// watchers see and the public state after it (nil: unchanged). A store
// writes the three at once, so the event log and the state never
// disagree with the journal.
type RunStep struct {
	Key    string // the entry's journal key (journal.Entry.Key)
	Entry  []byte // the entry (JSON)
	Events []RunEvent
	Public []byte
}

// RunStore keeps durable runs (POST /v1/runs, worker/runs).
//
//   - On Workers it is the RunLog Durable Object bound as RUNS
//     (worker/cfworker/runs_js.go): one object per run, SQLite-backed,
//     whose alarm runs the run's executor, so a run outlives its caller,
//     the isolate that started it and a restart.
//   - Natively it is a MemoryRunStore (one process), which runs the
//     executor on a goroutine.
type RunStore interface {
	// Start records run id, unless it exists (created false: a start
	// retried), and has its executor run it.
	Start(ctx context.Context, id string, s RunStart) (created bool, err error)
	// Get returns the record (Decision: the one recorded for req), or
	// ok false when there is no such run.
	Get(ctx context.Context, id, req string) (rec RunRecord, ok bool, err error)
	// Events returns the events after seq after, waiting up to wait for
	// the first one; ended reports that a done or error event is logged.
	Events(ctx context.Context, id string, after int, wait time.Duration) (events []RunEvent, ended bool, err error)
	// Answer records decision for request req unless one is recorded, and
	// with it step, the journal's answer entry; then the executor goes
	// on. Of racing calls exactly one wins; the others get the winner's.
	Answer(ctx context.Context, id, req string, decision []byte, step RunStep) (won bool, standing []byte, err error)
	// Load returns the run's journal entries (JSON) in the order recorded.
	Load(ctx context.Context, id string) ([][]byte, error)
	// Record appends step; an entry whose key is recorded already is
	// refused with an error matching journal.ErrDuplicate.
	Record(ctx context.Context, id string, step RunStep) error
	// Note and SetNote keep what the executor keeps beside the journal
	// (a halted team's tree, the halts a webhook was told of); a missing
	// note is nil.
	Note(ctx context.Context, id, key string) ([]byte, error)
	SetNote(ctx context.Context, id, key string, value []byte) error
}

// ErrDuplicateStep is what a RunStore's Record returns for an entry whose
// key is recorded already.
var ErrDuplicateStep = journal.ErrDuplicate

// MemoryRunStore is a RunStore in process memory, for native runs and
// tests. Its executor (SetExecutor) runs a run on a goroutine after its
// start and after each answer, one at a time per run, as the RunLog's
// alarm does on Workers.
type MemoryRunStore struct {
	mu       sync.Mutex
	runs     map[string]*memoryRun
	executor func(id string) (again bool)
}

type memoryRun struct {
	public, meta []byte
	journal      [][]byte
	keys         map[string]bool
	events       []RunEvent
	ended        bool
	answers      map[string][]byte
	notes        map[string][]byte
	wake         chan struct{} // closed and replaced on every append
	// driving and kicked serialise the executor: one at a time, and one
	// more when kicked while it ran.
	driving, kicked bool
}

// NewMemoryRunStore returns an empty store.
func NewMemoryRunStore() *MemoryRunStore { return &MemoryRunStore{runs: map[string]*memoryRun{}} }

// SetExecutor sets what runs a run: it reports again when it stopped
// before the run halted or ended (its time was up).
func (m *MemoryRunStore) SetExecutor(run func(id string) (again bool)) {
	m.mu.Lock()
	m.executor = run
	m.mu.Unlock()
}

// kick has the executor run id; m.mu is held.
func (m *MemoryRunStore) kick(id string, r *memoryRun) {
	if m.executor == nil {
		return
	}
	if r.driving {
		r.kicked = true
		return
	}
	r.driving = true
	run := m.executor
	go func() {
		for {
			again := run(id)
			m.mu.Lock()
			if !again && !r.kicked {
				r.driving = false
				m.mu.Unlock()
				return
			}
			r.kicked = false
			m.mu.Unlock()
		}
	}()
}

func (m *MemoryRunStore) Start(_ context.Context, id string, s RunStart) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs[id] != nil {
		return false, nil
	}
	r := &memoryRun{public: s.Public, meta: s.Meta, journal: [][]byte{s.Entry}, keys: map[string]bool{journal.KindStart: true},
		answers: map[string][]byte{}, notes: map[string][]byte{}, wake: make(chan struct{})}
	m.runs[id] = r
	m.kick(id, r)
	return true, nil
}

func (m *MemoryRunStore) Get(_ context.Context, id, req string) (RunRecord, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[id]
	if r == nil {
		return RunRecord{}, false, nil
	}
	return RunRecord{Public: r.public, Meta: r.meta, Decision: r.answers[req]}, true, nil
}

// record appends step to r; m.mu is held.
func (r *memoryRun) record(step RunStep) error {
	if r.keys[step.Key] {
		return errors.Join(ErrDuplicateStep, errors.New("worker: run step "+step.Key+" is recorded already"))
	}
	r.keys[step.Key] = true
	r.journal = append(r.journal, step.Entry)
	for _, e := range step.Events {
		r.events = append(r.events, RunEvent{Seq: len(r.events) + 1, Type: e.Type, Data: e.Data})
		if e.Type == "done" || e.Type == "error" {
			r.ended = true
		}
	}
	if step.Public != nil {
		r.public = step.Public
	}
	close(r.wake)
	r.wake = make(chan struct{})
	return nil
}

func (m *MemoryRunStore) Record(_ context.Context, id string, step RunStep) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[id]
	if r == nil {
		return errors.New("worker: no run " + id)
	}
	return r.record(step)
}

func (m *MemoryRunStore) Load(_ context.Context, id string) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[id]
	if r == nil {
		return nil, nil
	}
	return append([][]byte(nil), r.journal...), nil
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

func (m *MemoryRunStore) Answer(_ context.Context, id, req string, decision []byte, step RunStep) (bool, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[id]
	if r == nil {
		return false, nil, nil
	}
	if d, ok := r.answers[req]; ok {
		return false, d, nil
	}
	if err := r.record(step); err != nil {
		return false, nil, err
	}
	r.answers[req] = decision
	m.kick(id, r)
	return true, decision, nil
}

func (m *MemoryRunStore) Note(_ context.Context, id, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.runs[id]; r != nil {
		return r.notes[key], nil
	}
	return nil, nil
}

func (m *MemoryRunStore) SetNote(_ context.Context, id, key string, value []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.runs[id]; r != nil {
		r.notes[key] = value
	}
	return nil
}
