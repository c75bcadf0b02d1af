package toolnexus

import (
	"fmt"
	"strings"
	"sync"
)

// TaskStore keeps the tasks Serve fulfils. Get returns (nil, nil) for an
// id it does not know; an error only for a failure the store wants seen.
type TaskStore interface {
	Get(id string) (*A2ATask, error)
	Save(task A2ATask) error
}

// InMemoryTaskStore is the default store: tasks live as long as the
// process. It is safe for concurrent use.
type InMemoryTaskStore struct {
	mu    sync.Mutex
	tasks map[string]A2ATask
}

// NewInMemoryTaskStore returns an empty in-memory store.
func NewInMemoryTaskStore() *InMemoryTaskStore {
	return &InMemoryTaskStore{tasks: map[string]A2ATask{}}
}

// Get returns a copy of the task, or (nil, nil) when there is none.
func (s *InMemoryTaskStore) Get(id string) (*A2ATask, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok {
		return nil, nil
	}
	return &t, nil
}

// Save keeps the task under its id.
func (s *InMemoryTaskStore) Save(task A2ATask) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tasks == nil {
		s.tasks = map[string]A2ATask{}
	}
	s.tasks[task.ID] = task
	return nil
}

// FileTaskStore keeps each task in a JSON file of its own under a
// directory (store_files.go). Under js/wasm there are no host files:
// Save fails with ErrNoHostFiles and Get finds nothing.
type FileTaskStore struct {
	dir string
}

// NewFileTaskStore returns a store in dir, which it creates when missing.
func NewFileTaskStore(dir string) *FileTaskStore {
	makeStoreDir(dir)
	return &FileTaskStore{dir: dir}
}

// ResolveStore turns A2AConfig.Store into a store: nil, "" or "memory" is
// a new in-memory store, "file:<dir>" a file store in dir, and a
// TaskStore is used as it is. Anything else is an error.
func ResolveStore(store any) (TaskStore, error) {
	switch v := store.(type) {
	case nil:
		return NewInMemoryTaskStore(), nil
	case TaskStore:
		return v, nil
	case string:
		switch {
		case v == "" || v == "memory":
			return NewInMemoryTaskStore(), nil
		case strings.HasPrefix(v, "file:"):
			return NewFileTaskStore(strings.TrimPrefix(v, "file:")), nil
		}
		return nil, fmt.Errorf("unknown A2A store: %q (expected \"memory\" or \"file:<dir>\")", v)
	}
	return nil, fmt.Errorf("unknown A2A store type: %T", store)
}
