package vfs

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// FileSystem is the virtual file system the file built-ins (read, write,
// edit, glob, grep, apply_patch) work on. Paths are slash-separated and
// relative ("notes/todo.md"); a leading "/" or "./" is ignored and ".."
// may not leave the root. Directories are implicit: a file's parents exist
// while it does.
//
// A host supplies its own (a Worker over R2 or KV, a page over IndexedDB) or
// uses NewMemFS. ReadFile of a missing file returns an error wrapping
// fs.ErrNotExist.
type FileSystem interface {
	ReadFile(name string) ([]byte, error)
	WriteFile(name string, data []byte) error
	Remove(name string) error
	// List returns every file's path, sorted.
	List() ([]string, error)
}

// MemFS is an in-memory FileSystem, safe for concurrent use. It is also an
// fs.FS (with ReadFile, ReadDir and Stat), so a skills folder can live in it.
type MemFS struct {
	mu    sync.RWMutex
	files map[string][]byte
	// OnChange, when set, is called after each successful write (data is the
	// new content) or remove (data nil, removed true), outside the lock. A
	// host uses it to persist the files or to redraw a view of them.
	OnChange func(name string, data []byte, removed bool)
}

// NewMemFS returns an in-memory file system holding a copy of files
// (path ⇒ content; nil for an empty one). Paths are cleaned as CleanPath does;
// an invalid one is an error.
func NewMemFS(files map[string]string) (*MemFS, error) {
	m := &MemFS{files: map[string][]byte{}}
	for name, text := range files {
		p, err := CleanPath(name)
		if err != nil {
			return nil, fmt.Errorf("core: memfs: %w", err)
		}
		m.files[p] = []byte(text)
	}
	return m, nil
}

// CleanPath turns a tool-supplied path into the VFS form: slash-separated,
// relative, no "." or ".." elements. It refuses an empty path, one that climbs
// above the root, and one with a NUL byte.
func CleanPath(name string) (string, error) {
	if strings.IndexByte(name, 0) >= 0 {
		return "", fmt.Errorf("path %q has a NUL byte", name)
	}
	// Clean("/" + x) would silently drop a leading "..": refuse it first.
	if climbs(name) {
		return "", fmt.Errorf("path %q leaves the file system root", name)
	}
	p := strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(name, "\\", "/")), "/")
	if p == "" || p == "." {
		return "", fmt.Errorf("path %q names no file", name)
	}
	return p, nil
}

// climbs reports whether a relative path goes above its start at any point.
func climbs(name string) bool {
	depth := 0
	for _, el := range strings.Split(strings.ReplaceAll(name, "\\", "/"), "/") {
		switch el {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

func (m *MemFS) ReadFile(name string) ([]byte, error) {
	p, err := CleanPath(name)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	m.mu.RLock()
	b, ok := m.files[p]
	m.mu.RUnlock()
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
	}
	return append([]byte(nil), b...), nil
}

func (m *MemFS) WriteFile(name string, data []byte) error {
	p, err := CleanPath(name)
	if err != nil {
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	m.mu.Lock()
	if m.files == nil {
		m.files = map[string][]byte{}
	}
	if m.isDirLocked(p) {
		m.mu.Unlock()
		return &fs.PathError{Op: "write", Path: p, Err: errors.New("is a directory")}
	}
	m.files[p] = append([]byte(nil), data...)
	hook := m.OnChange
	m.mu.Unlock()
	if hook != nil {
		hook(p, data, false)
	}
	return nil
}

func (m *MemFS) Remove(name string) error {
	p, err := CleanPath(name)
	if err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	m.mu.Lock()
	_, ok := m.files[p]
	delete(m.files, p)
	hook := m.OnChange
	m.mu.Unlock()
	if !ok {
		return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrNotExist}
	}
	if hook != nil {
		hook(p, nil, true)
	}
	return nil
}

func (m *MemFS) List() ([]string, error) {
	m.mu.RLock()
	out := make([]string, 0, len(m.files))
	for p := range m.files {
		out = append(out, p)
	}
	m.mu.RUnlock()
	sort.Strings(out)
	return out, nil
}

// Snapshot returns a copy of every file as path ⇒ text.
func (m *MemFS) Snapshot() map[string]string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make(map[string]string, len(m.files))
	for p, b := range m.files {
		out[p] = string(b)
	}
	return out
}

func (m *MemFS) isDirLocked(p string) bool {
	prefix := p + "/"
	for f := range m.files {
		if strings.HasPrefix(f, prefix) {
			return true
		}
	}
	return false
}

// fs.FS view ---------------------------------------------------------------

// Open implements fs.FS. Names follow fs.ValidPath; "." is the root.
func (m *MemFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if b, ok := m.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(b))}, data: append([]byte(nil), b...)}, nil
	}
	if name == "." || m.isDirLocked(name) {
		return &memFile{info: memInfo{name: path.Base(name), dir: true}, entries: m.readDirLocked(name)}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadFile implements fs.ReadFileFS through the same lookup as ReadFile.
// (The method set is shared: FileSystem.ReadFile accepts fs.FS names too.)

// ReadDir implements fs.ReadDirFS.
func (m *MemFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if name != "." && !m.isDirLocked(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return m.readDirLocked(name), nil
}

func (m *MemFS) readDirLocked(dir string) []fs.DirEntry {
	prefix := dir + "/"
	if dir == "." {
		prefix = ""
	}
	seen := map[string]fs.DirEntry{}
	for f, b := range m.files {
		if !strings.HasPrefix(f, prefix) {
			continue
		}
		rest := f[len(prefix):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			seen[rest[:i]] = memInfo{name: rest[:i], dir: true}
		} else {
			seen[rest] = memInfo{name: rest, size: int64(len(b))}
		}
	}
	out := make([]fs.DirEntry, 0, len(seen))
	for _, e := range seen {
		out = append(out, e)
	}
	// As io/fs.ReadDir sorts: the wasm build has that instantiation already.
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time         { return time.Time{} }
func (i memInfo) IsDir() bool                { return i.dir }
func (i memInfo) Sys() any                   { return nil }
func (i memInfo) Type() fs.FileMode          { return i.Mode().Type() }
func (i memInfo) Info() (fs.FileInfo, error) { return i, nil }

type memFile struct {
	info    memInfo
	data    []byte
	off     int
	entries []fs.DirEntry
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Read(p []byte) (int, error) {
	if f.info.dir {
		return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: errors.New("is a directory")}
	}
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += n
	return n, nil
}

// ReadDir implements fs.ReadDirFile.
func (f *memFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if !f.info.dir {
		return nil, &fs.PathError{Op: "readdir", Path: f.info.name, Err: errors.New("not a directory")}
	}
	if n <= 0 {
		out := f.entries
		f.entries = nil
		return out, nil
	}
	if len(f.entries) == 0 {
		return nil, io.EOF
	}
	if n > len(f.entries) {
		n = len(f.entries)
	}
	out := f.entries[:n]
	f.entries = f.entries[n:]
	return out, nil
}
