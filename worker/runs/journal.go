package runs

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/worker"
)

// runJournal is a durable run's journal over its RunStore: each entry is
// written with the events it makes and the public state after it, in one
// step (RunStore.Record), so the event log and GET /v1/runs/{id} always
// follow from the journal. It reads the store once; the executor is the
// run's only writer while it runs (the RunLog's alarm runs one at a time),
// and a step recorded by another writer in between is refused by its key.
type runJournal struct {
	store   worker.RunStore
	id      string
	view    *view
	now     func() time.Time // the Worker's clock stamps each entry (Options.Now)
	mu      sync.Mutex
	entries []journal.Entry // nil until read
	applied bool            // the view was told of the entries read
	// pause, for the tests only (TOOLNEXUS_TEST_HOOKS=1 and
	// TOOLNEXUS_TEST_PAUSE="before:<kind>" or "after:<kind>"), holds the
	// executor at an entry of that kind until its context ends, so a test
	// can stop the Worker at that step; logf says it is held. ("stall"
	// makes each life of the executor return at once: drive.go.)
	pause string
	logf  func(string, ...any)
}

// open reads the run's entries once; the view is not told of them yet
// (the executor first reads what the run was started with).
func (j *runJournal) open(ctx context.Context) ([]journal.Entry, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.read(ctx); err != nil {
		return nil, err
	}
	return append([]journal.Entry(nil), j.entries...), nil
}

// read reads the entries; j.mu is held.
func (j *runJournal) read(ctx context.Context) error {
	if j.entries != nil {
		return nil
	}
	texts, err := j.store.Load(ctx, j.id)
	if err != nil {
		return fmt.Errorf("runs: load the journal: %w", err)
	}
	entries, err := journal.DecodeAll(texts)
	if err != nil {
		return err
	}
	if entries == nil {
		entries = []journal.Entry{}
	}
	j.entries = entries
	return nil
}

// Load implements journal.Journal: the run's entries, which the view is
// told of once (their events were sent when they were recorded).
func (j *runJournal) Load(ctx context.Context) ([]journal.Entry, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.read(ctx); err != nil {
		return nil, err
	}
	if !j.applied {
		for i := range j.entries {
			j.view.apply(&j.entries[i])
		}
		j.applied = true
	}
	return append([]journal.Entry(nil), j.entries...), nil
}

// Record implements journal.Journal.
func (j *runJournal) Record(ctx context.Context, e journal.Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.now != nil {
		e.At = j.now().UnixMilli()
	}
	text, err := e.AppendJSON(nil)
	if err != nil {
		return err
	}
	if j.pause == "before:"+e.Kind {
		return j.hold(ctx, e)
	}
	events := j.view.apply(&e)
	if err := j.store.Record(ctx, j.id, worker.RunStep{Key: e.Key(), Entry: text, Events: events, Public: j.view.public()}); err != nil {
		return err
	}
	j.entries = append(j.entries, e)
	if j.pause == "after:"+e.Kind {
		return j.hold(ctx, e)
	}
	return nil
}

// hold is the tests' pause: it says where it holds and waits for ctx.
func (j *runJournal) hold(ctx context.Context, e journal.Entry) error {
	j.logf("worker: durable run %s held %s entry %s (TOOLNEXUS_TEST_PAUSE)", j.id, j.pause, e.Key())
	<-ctx.Done()
	return ctx.Err()
}
