//go:build js

package toolnexus

import (
	"io/fs"
	"path"
)

// Under js/wasm core reads no host directories (core.ErrNoHostFiles), so
// the Go port's SkillsDir adds nothing here and no file-system path code
// is linked into the wasm.

type hostDir struct {
	root string
	fsys fs.FS
}

func hostDirs([]string) []hostDir { return nil }

func hostPath(root, p string) string { return path.Join(root, p) }

// fileURL is a directory as a file:// URL (no host directories here).
func fileURL(dir string) string { return "file://" + dir }
