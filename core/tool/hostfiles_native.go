//go:build !js

package tool

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func init() { RegisterHostFiles(OSFiles()) }

// OSFiles is HostFiles over package os.
func OSFiles() HostFiles { return HostFiles{DirsFS: osDirs, ReadFile: os.ReadFile} }

func osDirs(dirs []string) fs.FS {
	u := unionFS{dirs: dirs}
	for _, d := range dirs {
		u.fss = append(u.fss, os.DirFS(d))
	}
	return u
}

type unionFS struct {
	dirs []string
	fss  []fs.FS
}

// Origin names the directory where p is found first ("" when none has it).
func (u unionFS) Origin(p string) string {
	for i, f := range u.fss {
		if _, err := fs.Stat(f, p); err == nil {
			return u.dirs[i]
		}
	}
	return ""
}

func (u unionFS) Open(name string) (fs.File, error) {
	err := error(&fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist})
	for _, f := range u.fss {
		file, e := f.Open(name)
		if e == nil {
			return file, nil
		}
		if !errors.Is(e, fs.ErrNotExist) {
			err = e
		}
	}
	return nil, err
}

func (u unionFS) ReadDir(name string) ([]fs.DirEntry, error) {
	var out []fs.DirEntry
	seen := map[string]bool{}
	found := false
	for i, f := range u.fss {
		list, err := fs.ReadDir(f, name)
		if err != nil {
			continue
		}
		found = true
		for _, e := range list {
			if !seen[e.Name()] {
				seen[e.Name()] = true
				out = append(out, u.followLink(i, name, e))
			}
		}
	}
	if !found {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// followLink turns an entry that is a symbolic link into the entry of what
// it points to, so a walk goes into a linked directory (a skills folder
// often links skills kept elsewhere). A broken link, and a link to the
// directory it sits in or one above it (a cycle), stay links.
func (u unionFS) followLink(i int, dir string, e fs.DirEntry) fs.DirEntry {
	if e.Type()&fs.ModeSymlink == 0 {
		return e
	}
	at := filepath.Join(u.dirs[i], filepath.FromSlash(dir), e.Name())
	info, err := os.Stat(at)
	if err != nil {
		return e
	}
	if info.IsDir() {
		target, err1 := filepath.EvalSymlinks(at)
		parent, err2 := filepath.EvalSymlinks(filepath.Dir(at))
		if err1 != nil || err2 != nil || parent == target || strings.HasPrefix(parent, target+string(filepath.Separator)) {
			return e
		}
	}
	return fs.FileInfoToDirEntry(info)
}
