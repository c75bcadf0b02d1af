package worker

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
)

// The bindings the built-ins' file system is kept in. R2 is preferred when
// both are bound: it lists strongly consistently, while a KV list may lag a
// write by up to a minute (within one request the Worker sees its own writes
// either way; see workspaceFS).
const (
	FilesR2Binding = "FILES_R2"
	FilesKVBinding = "FILES_KV"
)

// Limits of the Worker's file system.
const (
	// MaxFileBytes caps one file: the Worker holds a file whole in memory,
	// and KV allows 25 MiB a value.
	MaxFileBytes = 1 << 20
	// maxWorkspaceFiles caps the files of one workspace, so that a listing
	// (one store call per 1000 keys) stays within a request's subrequests.
	maxWorkspaceFiles = 5000
	// maxWorkspaceID bounds a workspace name.
	maxWorkspaceID = 64
	// maxFileKey is the longest key Workers KV accepts (R2 allows 1024).
	maxFileKey = 512
	// filesTimeout bounds one store call (core.FileSystem has no context).
	filesTimeout = 10 * time.Second
	// defaultWorkspace holds the files of requests that name none.
	defaultWorkspace = "default"
)

// BlobStore is the storage under the built-ins' file system: on Workers an
// R2 bucket (FILES_R2) or a KV namespace (FILES_KV); natively and in tests
// a MemoryBlobs.
type BlobStore interface {
	// Get returns the bytes stored under key; found is false when there are
	// none.
	Get(ctx context.Context, key string) (data []byte, found bool, err error)
	// Put stores data under key.
	Put(ctx context.Context, key string, data []byte) error
	// Delete removes key; a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// List returns every key starting with prefix, in any order. More than
	// limit keys is an error.
	List(ctx context.Context, prefix string, limit int) ([]string, error)
}

// workspaceFS is the core.FileSystem of one request: the files of one
// workspace, each stored under "files/<workspace>/<path>". It remembers what
// it read, wrote and removed, so that a run reads each file from the store
// once and always sees its own writes, also in a listing (a KV list may not
// show a key written moments ago).
type workspaceFS struct {
	ctx    context.Context
	store  BlobStore
	prefix string

	mu     sync.Mutex
	cache  map[string][]byte // path ⇒ content; a nil entry: known not to exist
	listed map[string]bool   // the store's listing; nil until first needed
}

// newWorkspaceFS returns the file system of workspace in store. ctx is the
// request's: every store call ends with it.
func newWorkspaceFS(ctx context.Context, store BlobStore, workspace string) *workspaceFS {
	return &workspaceFS{ctx: ctx, store: store, prefix: "files/" + workspace + "/", cache: map[string][]byte{}}
}

// key returns the store key of a tool-supplied path, and the cleaned path.
func (w *workspaceFS) key(name string) (key, p string, err error) {
	if p, err = core.CleanPath(name); err != nil {
		return "", "", err
	}
	key = w.prefix + p
	if len(key) > maxFileKey {
		return "", "", fmt.Errorf("path %q is too long for the file store (%d bytes at most)", p, maxFileKey-len(w.prefix))
	}
	return key, p, nil
}

// call runs one store call under the request's context and filesTimeout.
func (w *workspaceFS) call(fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(w.ctx, filesTimeout)
	defer cancel()
	return fn(ctx)
}

// ReadFile implements core.FileSystem.
func (w *workspaceFS) ReadFile(name string) ([]byte, error) {
	key, p, err := w.key(name)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	data, cached := w.cache[p]
	w.mu.Unlock()
	if !cached {
		var found bool
		err := w.call(func(ctx context.Context) (err error) {
			data, found, err = w.store.Get(ctx, key)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		if !found {
			data = nil
		} else if data == nil {
			data = []byte{} // an empty file exists: keep it apart from "missing"
		}
		w.mu.Lock()
		w.cache[p] = data
		w.mu.Unlock()
	}
	if data == nil {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
	}
	return append([]byte(nil), data...), nil
}

// WriteFile implements core.FileSystem.
func (w *workspaceFS) WriteFile(name string, data []byte) error {
	key, p, err := w.key(name)
	if err != nil {
		return err
	}
	if len(data) > MaxFileBytes {
		return fmt.Errorf("write %s: %d bytes is over the file store's limit of %d", p, len(data), MaxFileBytes)
	}
	if err := w.call(func(ctx context.Context) error { return w.store.Put(ctx, key, data) }); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	w.mu.Lock()
	w.cache[p] = append([]byte{}, data...)
	w.mu.Unlock()
	return nil
}

// Remove implements core.FileSystem. A missing file is an error wrapping
// fs.ErrNotExist, as in core.MemFS.
func (w *workspaceFS) Remove(name string) error {
	key, p, err := w.key(name)
	if err != nil {
		return err
	}
	if _, err := w.ReadFile(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrNotExist}
		}
		return err
	}
	if err := w.call(func(ctx context.Context) error { return w.store.Delete(ctx, key) }); err != nil {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	w.mu.Lock()
	w.cache[p] = nil
	w.mu.Unlock()
	return nil
}

// List implements core.FileSystem: the store's listing (read once per
// request) with this request's own writes and removals applied.
func (w *workspaceFS) List() ([]string, error) {
	w.mu.Lock()
	listed := w.listed
	w.mu.Unlock()
	if listed == nil {
		var keys []string
		err := w.call(func(ctx context.Context) (err error) {
			keys, err = w.store.List(ctx, w.prefix, maxWorkspaceFiles)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("list files: %w", err)
		}
		listed = make(map[string]bool, len(keys))
		for _, k := range keys {
			listed[strings.TrimPrefix(k, w.prefix)] = true
		}
		w.mu.Lock()
		w.listed = listed
		w.mu.Unlock()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(listed)+len(w.cache))
	for p := range listed {
		if data, cached := w.cache[p]; !cached || data != nil {
			out = append(out, p)
		}
	}
	for p, data := range w.cache {
		if data != nil && !listed[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// validWorkspaceID accepts 1–64 characters of A–Z a–z 0–9 . _ -, but not
// "." or "..".
func validWorkspaceID(id string) bool {
	return validName(id, maxWorkspaceID, "._-") && id != "." && id != ".."
}

// checkWorkspace answers 400 when a request names an invalid workspace.
func checkWorkspace(w httpx.ResponseWriter, id string) bool {
	if id == "" || validWorkspaceID(id) {
		return true
	}
	writeError(w, httpx.StatusBadRequest, "invalid_field", `"workspace" must be 1-64 characters of A-Z, a-z, 0-9, ".", "_" or "-"`)
	return false
}

// MemoryBlobs is a BlobStore in process memory: right for native runs and
// tests, useless on Workers (an isolate's memory is neither shared with the
// other isolates nor kept).
type MemoryBlobs struct {
	mu sync.Mutex
	m  map[string][]byte
}

// NewMemoryBlobs returns an empty MemoryBlobs.
func NewMemoryBlobs() *MemoryBlobs { return &MemoryBlobs{m: map[string][]byte{}} }

// Get implements BlobStore.
func (b *MemoryBlobs) Get(_ context.Context, key string) ([]byte, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.m[key]
	return append([]byte{}, data...), ok, nil
}

// Put implements BlobStore.
func (b *MemoryBlobs) Put(_ context.Context, key string, data []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[key] = append([]byte{}, data...)
	return nil
}

// Delete implements BlobStore.
func (b *MemoryBlobs) Delete(_ context.Context, key string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, key)
	return nil
}

// List implements BlobStore.
func (b *MemoryBlobs) List(_ context.Context, prefix string, limit int) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for k := range b.m {
		if strings.HasPrefix(k, prefix) {
			if len(out) == limit {
				return nil, fmt.Errorf("more than %d keys start with %q", limit, prefix)
			}
			out = append(out, k)
		}
	}
	return out, nil
}
