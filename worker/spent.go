package worker

import (
	"context"
	"sync"
	"time"
)

// SpentStore remembers the ids of state tokens that were already resumed,
// so that a second resume of the same token is refused with 409.
//
//   - A stateless Worker cannot detect reuse on its own; with no store a
//     token can be resumed again until it expires.
//   - On Workers the store is a KV namespace bound as STATE_KV. KV is
//     eventually consistent, so two resumes racing within about a minute in
//     different locations may both pass; a Durable Object would close that gap.
type SpentStore interface {
	// Spend marks id as used until the given time. It reports false when id
	// was already marked.
	Spend(ctx context.Context, id string, until time.Time) (fresh bool, err error)
}

// MemorySpentStore is a SpentStore in process memory: right for native runs
// and tests, useless on Workers (an isolate's memory is neither shared with
// the other isolates nor kept).
type MemorySpentStore struct {
	mu    sync.Mutex
	spent map[string]time.Time
	now   func() time.Time
}

// NewMemorySpentStore returns an empty store.
func NewMemorySpentStore() *MemorySpentStore {
	return &MemorySpentStore{spent: map[string]time.Time{}, now: time.Now}
}

// Spend implements SpentStore. It also drops entries past their time.
func (m *MemorySpentStore) Spend(_ context.Context, id string, until time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for k, t := range m.spent {
		if now.After(t) {
			delete(m.spent, k)
		}
	}
	if _, ok := m.spent[id]; ok {
		return false, nil
	}
	m.spent[id] = until
	return true, nil
}
