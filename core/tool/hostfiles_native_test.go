//go:build !js

package tool

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A walk of host directories goes into a symlinked directory, but not
// round a link that points back up.
func TestHostDirsFollowLinkedDirectories(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	for _, f := range []string{filepath.Join(root, "own", "SKILL.md"), filepath.Join(elsewhere, "kept", "SKILL.md")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"linked": filepath.Join(elsewhere, "kept"),
		"loop":   root,
		"broken": filepath.Join(elsewhere, "missing"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	var found []string
	err := fs.WalkDir(osDirs([]string{root}), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Type().IsRegular() {
			found = append(found, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"linked/SKILL.md", "own/SKILL.md"}; !slices.Equal(found, want) {
		t.Fatalf("found %q, want %q", found, want)
	}
}
