//go:build !js

package journal

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"os"
	"sync"
)

// File is a Journal in a file of JSON Lines, one entry a line, written
// with O_APPEND and synced before Record returns: a native Go program that
// is killed mid-run continues the run from the file (Client.Continue).
// A last line cut off by the kill (no newline) is dropped when the file is
// opened; any other line that does not read is an error. Two processes
// must not record into one file at once; within a process File is safe
// for concurrent use.
type File struct {
	mu      sync.Mutex
	f       *os.File
	entries []Entry
	keys    map[string]bool
}

// OpenFile opens (or creates) the journal at path and reads what it holds.
func OpenFile(path string) (*File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &File{f: f, keys: map[string]bool{}}
	if err := j.read(path); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

func (j *File) read(path string) error {
	data, err := io.ReadAll(j.f)
	if err != nil {
		return fmt.Errorf("journal: %s: %w", path, err)
	}
	if n := bytes.LastIndexByte(data, '\n'); n+1 < len(data) {
		// A record cut off by a crash before its newline was never
		// acknowledged: drop it, on disk too, so the next one starts clean.
		if err := j.f.Truncate(int64(n + 1)); err != nil {
			return fmt.Errorf("journal: %s: %w", path, err)
		}
		data = data[:n+1]
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		e, err := Decode(sc.Bytes())
		if err != nil {
			return fmt.Errorf("journal: %s line %d: %w", path, line, err)
		}
		j.entries = append(j.entries, e)
		j.keys[e.Key()] = true
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("journal: %s: %w", path, err)
	}
	return nil
}

// Load implements Journal.
func (j *File) Load(context.Context) ([]Entry, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Entry(nil), j.entries...), nil
}

// Record implements Journal: the line is on disk (fsync) when it returns.
func (j *File) Record(_ context.Context, e Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return errors.New("journal: file is closed")
	}
	k := e.Key()
	if j.keys[k] {
		return duplicate(k)
	}
	line, err := e.AppendJSON(nil)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.keys[k] = true
	j.entries = append(j.entries, e)
	return nil
}

// Close closes the file.
func (j *File) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}
