package once

import (
	"context"
	"sync"
)

// MemoryStore is a Store in this process's memory: answers are single-use
// while the process lives. Its zero value is ready to use.
type MemoryStore struct {
	mu    sync.Mutex
	spent map[string]struct{}
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// Spend implements Store.
func (m *MemoryStore) Spend(_ context.Context, id string) (bool, error) {
	if id == "" {
		return false, errNoID
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.spent[id]; ok {
		return false, nil
	}
	if m.spent == nil {
		m.spent = map[string]struct{}{}
	}
	m.spent[id] = struct{}{}
	return true, nil
}
