package builtins

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core/vfs"
)

func TestApplyPatch(t *testing.T) {
	start := map[string]string{"app.txt": "alpha\nbeta\ngamma\ndelta\n", "old.txt": "bye\n"}
	tests := []struct {
		name    string
		patch   string
		isError string            // "" for success, else a substring of the error
		want    map[string]string // files afterwards
	}{
		{"update add delete", `*** Begin Patch
*** Update File: app.txt
@@
 alpha
-beta
+BETA
 gamma
*** Add File: notes/new.md
+# New
+text
*** Delete File: old.txt
*** End Patch`, "", map[string]string{"app.txt": "alpha\nBETA\ngamma\ndelta\n", "notes/new.md": "# New\ntext\n"}},
		{"two hunks and an anchor", `*** Begin Patch
*** Update File: app.txt
@@ alpha
-beta
+b
@@
-delta
+d
*** End Patch`, "", map[string]string{"app.txt": "alpha\nb\ngamma\nd\n", "old.txt": "bye\n"}},
		{"move", `*** Begin Patch
*** Update File: old.txt
*** Move to: archive/old.txt
@@
-bye
+farewell
*** End Patch`, "", map[string]string{"app.txt": "alpha\nbeta\ngamma\ndelta\n", "archive/old.txt": "farewell\n"}},
		{"second hunk does not apply: nothing written", `*** Begin Patch
*** Add File: created.txt
+should not appear
*** Update File: app.txt
@@
-alpha
+ALPHA
@@
-no such line
+x
*** End Patch`, "hunk 2 does not apply", start},
		{"delete of a missing file", `*** Begin Patch
*** Update File: app.txt
@@
-alpha
+A
*** Delete File: ghost.txt
*** End Patch`, "ghost.txt: it does not exist", start},
		{"add over an existing file", "*** Begin Patch\n*** Add File: app.txt\n+x\n*** End Patch", "already exists", start},
		{"update a missing file", "*** Begin Patch\n*** Update File: none.txt\n@@\n-a\n+b\n*** End Patch", "does not exist", start},
		{"no begin", "*** Update File: app.txt\n*** End Patch", "must start with *** Begin Patch", start},
		{"no end", "*** Begin Patch\n*** Add File: x\n+y", "must end with *** End Patch", start},
		{"bad hunk line", "*** Begin Patch\n*** Update File: app.txt\n@@\n~alpha\n*** End Patch", "must start with", start},
		{"escaping path", "*** Begin Patch\n*** Add File: ../evil\n+x\n*** End Patch", "leaves the file system root", start},
		{"empty patch", "*** Begin Patch\n*** End Patch", "changes no file", start},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := memfs(t, start)
			tk := builtinKit(t, files)
			res := execTool(t, tk, "apply_patch", map[string]any{"patchText": tc.patch})
			if tc.isError == "" && res.IsError || tc.isError != "" && (!res.IsError || !strings.Contains(res.Output, tc.isError)) {
				t.Fatalf("result %+v, want error %q", res, tc.isError)
			}
			got := files.Snapshot()
			if len(got) != len(tc.want) {
				t.Fatalf("files = %q, want %q", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Fatalf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// failingFS fails the nth write, to check that apply_patch undoes the
// writes before it.
type failingFS struct {
	*vfs.MemFS
	writes, failAt int
}

func (f *failingFS) WriteFile(name string, data []byte) error {
	f.writes++
	if f.writes == f.failAt {
		return errors.New("disk full")
	}
	return f.MemFS.WriteFile(name, data)
}

func TestApplyPatchUndoesAFailedWrite(t *testing.T) {
	files := &failingFS{MemFS: memfs(t, map[string]string{"a.txt": "1\n", "b.txt": "2\n"}), failAt: 2}
	tk := builtinKit(t, files)
	res := execTool(t, tk, "apply_patch", map[string]any{"patchText": "*** Begin Patch\n*** Update File: a.txt\n@@\n-1\n+one\n*** Update File: b.txt\n@@\n-2\n+two\n*** End Patch"})
	if !res.IsError || !strings.Contains(res.Output, "disk full") {
		t.Fatalf("res = %+v", res)
	}
	if got := files.Snapshot(); got["a.txt"] != "1\n" || got["b.txt"] != "2\n" {
		t.Fatalf("files = %q, want them unchanged", got)
	}
}
