package journal

import (
	"context"
	"sync"
)

// Memory is a Journal in process memory: for tests, and for a host that
// keeps one process alive but wants a run to survive a cancelled request.
// Safe for concurrent use.
type Memory struct {
	mu      sync.Mutex
	entries []Entry
	keys    map[string]bool
}

// NewMemory returns an empty journal.
func NewMemory() *Memory { return &Memory{keys: map[string]bool{}} }

// Load implements Journal.
func (m *Memory) Load(context.Context) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Entry(nil), m.entries...), nil
}

// Record implements Journal.
func (m *Memory) Record(_ context.Context, e Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := e.Key()
	if m.keys[k] {
		return duplicate(k)
	}
	m.keys[k] = true
	m.entries = append(m.entries, e)
	return nil
}

// duplicate is the error of a refused entry, naming its key.
func duplicate(key string) error { return &dupError{key} }

type dupError struct{ key string }

func (e *dupError) Error() string        { return "journal: " + e.key + " is recorded already" }
func (e *dupError) Is(target error) bool { return target == ErrDuplicate }
