//go:build !js

package toolnexus

import (
	"io/fs"
	"net/url"
	"path/filepath"

	"github.com/toolnexus/wasm/core/tool"
)

// hostDir is one skills directory of the host: its absolute path and its
// files.
type hostDir struct {
	root string
	fsys fs.FS
}

// hostDirs opens the Go port's skill directories (core/tool's HostFiles);
// a relative one is made absolute, as the port's Locations are.
func hostDirs(dirs []string) []hostDir {
	files := tool.Files()
	if files == nil {
		return nil
	}
	var out []hostDir
	for _, dir := range dirs {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		out = append(out, hostDir{root: dir, fsys: files.DirsFS([]string{dir})})
	}
	return out
}

// hostPath is p (slash-separated, in a directory's fs.FS) under root.
func hostPath(root, p string) string { return filepath.Join(root, filepath.FromSlash(p)) }

// fileURL is a host directory as a file:// URL: the base directory the
// skill tool names for a skill found on disk.
func fileURL(dir string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
}
