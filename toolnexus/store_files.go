//go:build !js

package toolnexus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

func makeStoreDir(dir string) { _ = os.MkdirAll(dir, 0o755) }

// file is a task's file: its id made safe as a file name.
func (s *FileTaskStore) file(id string) string {
	return filepath.Join(s.dir, safeName(id)+".json")
}

// Get reads the task's file; a file that is missing or does not decode is
// no task (nil, nil), as in the Go port.
func (s *FileTaskStore) Get(id string) (*A2ATask, error) {
	data, err := os.ReadFile(s.file(id))
	if err != nil {
		return nil, nil
	}
	var t A2ATask
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, nil
	}
	return &t, nil
}

// Save writes the task to a temporary file and renames it into place, so
// that a Get at the same moment never reads half a file.
func (s *FileTaskStore) Save(task A2ATask) error {
	data, err := json.Marshal(task)
	if err != nil {
		return err
	}
	target := s.file(task.ID)
	tmp := target + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, target)
}

// safeName keeps [A-Za-z0-9_-] and writes '_' for anything else, so an id
// never names a path outside the store.
func safeName(id string) string {
	return strings.Map(func(c rune) rune {
		if c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			return c
		}
		return '_'
	}, id)
}
