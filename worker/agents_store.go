package worker

import (
	"context"
	"sync"
	"time"
)

// TreeStore keeps the halted agent trees of pending /v1/run and
// /v1/resume answers (agents.Runtime.Snapshot: every agent's transcript,
// far too big for a state token), each under the id of the state token that
// refers to it.
//
//   - On Workers it is the ApprovalLedger Durable Object bound as
//     APPROVALS (worker/cfworker/ledger_js.go): the object named after the token id holds
//     both the token's spent mark and its tree, and an alarm deletes the
//     tree at its expiry.
//   - Natively it is a MemoryTreeStore (one process).
//
// A token is single-use through SpentStore; Take then removes the tree, so
// a resumed (or expired) run leaves nothing stored.
type TreeStore interface {
	// Put stores tree under id until the given time.
	Put(ctx context.Context, id string, tree []byte, until time.Time) error
	// Take returns the tree stored under id and deletes it; nil (and no
	// error) when there is none or it has expired.
	Take(ctx context.Context, id string) ([]byte, error)
}

// MemoryTreeStore is a TreeStore in process memory: right for native runs
// and tests, useless on Workers (an isolate's memory is neither shared nor
// kept).
type MemoryTreeStore struct {
	mu    sync.Mutex
	trees map[string]storedTree
	// Now is the clock of expiry (time.Now); a test sets its own.
	Now func() time.Time
}

type storedTree struct {
	tree  []byte
	until time.Time
}

// NewMemoryTreeStore returns an empty store.
func NewMemoryTreeStore() *MemoryTreeStore {
	return &MemoryTreeStore{trees: map[string]storedTree{}, Now: time.Now}
}

// Put implements TreeStore. It also drops trees past their time.
func (m *MemoryTreeStore) Put(_ context.Context, id string, tree []byte, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expireLocked()
	m.trees[id] = storedTree{tree: append([]byte(nil), tree...), until: until}
	return nil
}

// Take implements TreeStore.
func (m *MemoryTreeStore) Take(_ context.Context, id string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expireLocked()
	t, ok := m.trees[id]
	if !ok {
		return nil, nil
	}
	delete(m.trees, id)
	return t.tree, nil
}

// Len reports how many trees are stored (for tests and operators).
func (m *MemoryTreeStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expireLocked()
	return len(m.trees)
}

func (m *MemoryTreeStore) expireLocked() {
	now := m.Now()
	for k, t := range m.trees {
		if !now.Before(t.until) {
			delete(m.trees, k)
		}
	}
}
