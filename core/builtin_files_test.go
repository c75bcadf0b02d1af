//go:build !js || !wasm || toolnexus_tools || toolnexus_full

package core

import (
	"context"
	"errors"
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// regexpMatcher makes grep behave the same in every build under test (the
// default js/wasm build has only literalMatcher).
func regexpMatcher(p string) (func(string) bool, error) {
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

func TestLiteralMatcher(t *testing.T) {
	m, err := literalMatcher("needle")
	if err != nil || !m("a needle here") || m("hay") {
		t.Fatalf("literal matcher: %v", err)
	}
	if _, err := literalMatcher("a.*b"); err == nil {
		t.Fatal("regexp operators must be refused by the literal matcher")
	}
}

// builtinKit is a toolkit of the built-ins alone over files.
func builtinKit(t *testing.T, files FileSystem) *Toolkit {
	t.Helper()
	tk, err := CreateToolkit(context.Background(), Options{Builtins: BuiltinsConfig{Files: files, Match: regexpMatcher}})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func memfs(t *testing.T, files map[string]string) *MemFS {
	t.Helper()
	m, err := NewMemFS(files)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func execTool(t *testing.T, tk *Toolkit, name string, args map[string]any) ToolResult {
	t.Helper()
	res, err := tk.Execute(context.Background(), name, args)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestFileBuiltins(t *testing.T) {
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		want    string // substring of the output
		isError bool
		after   map[string]string // files expected afterwards (nil: not checked)
	}{
		{"read whole", "read", map[string]any{"path": "a.txt"}, "one\ntwo\nthree\n", false, nil},
		{"read window", "read", map[string]any{"path": "/a.txt", "offset": 2.0, "limit": 1.0}, "two", false, nil},
		{"read missing", "read", map[string]any{"path": "nope.txt"}, "nope.txt does not exist", true, nil},
		{"read escapes root", "read", map[string]any{"path": "../etc/passwd"}, "leaves the file system root", true, nil},
		{"read needs path", "read", map[string]any{}, "path is required", true, nil},
		{"write new", "write", map[string]any{"path": "dir/new.md", "content": "hi"}, "Wrote 2 bytes to dir/new.md", false,
			map[string]string{"a.txt": "one\ntwo\nthree\n", "src/main.go": "package main\n\nfunc main() {}\n", "src/util.go": "package main\n", "dir/new.md": "hi"}},
		{"write needs content", "write", map[string]any{"path": "x"}, "content is required", true, nil},
		{"edit once", "edit", map[string]any{"path": "a.txt", "oldString": "two", "newString": "2"}, "1 replacement", false,
			map[string]string{"a.txt": "one\n2\nthree\n", "src/main.go": "package main\n\nfunc main() {}\n", "src/util.go": "package main\n"}},
		{"edit not unique", "edit", map[string]any{"path": "src/main.go", "oldString": "main", "newString": "x"}, "occurs 2 times", true, nil},
		{"edit replaceAll", "edit", map[string]any{"path": "src/main.go", "oldString": "main", "newString": "x", "replaceAll": true}, "2 replacements", false, nil},
		{"edit absent", "edit", map[string]any{"path": "a.txt", "oldString": "zzz", "newString": "y"}, "does not occur", true, nil},
		{"glob name", "glob", map[string]any{"pattern": "*.go"}, "src/main.go\nsrc/util.go", false, nil},
		{"glob deep", "glob", map[string]any{"pattern": "**/*.txt"}, "a.txt", false, nil},
		{"glob under", "glob", map[string]any{"pattern": "*.go", "path": "src", "limit": 1.0}, "main.go", false, nil},
		{"glob none", "glob", map[string]any{"pattern": "*.rs"}, "No files match", false, nil},
		{"glob bad", "glob", map[string]any{"pattern": "[x"}, "bad pattern", true, nil},
		{"grep regexp", "grep", map[string]any{"pattern": "^func \\w+"}, "src/main.go:3:func main() {}", false, nil},
		{"grep include", "grep", map[string]any{"pattern": "package", "include": "util.go"}, "src/util.go:1:package main", false, nil},
		{"grep none", "grep", map[string]any{"pattern": "zebra"}, "No matches", false, nil},
		{"grep bad", "grep", map[string]any{"pattern": "("}, "bad pattern", true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := memfs(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "src/main.go": "package main\n\nfunc main() {}\n", "src/util.go": "package main\n"})
			tk := builtinKit(t, files)
			res := execTool(t, tk, tc.tool, tc.args)
			if res.IsError != tc.isError || !strings.Contains(res.Output, tc.want) {
				t.Fatalf("%s(%v) = %+v; want isError=%v and %q", tc.tool, tc.args, res, tc.isError, tc.want)
			}
			if tc.after != nil {
				got := files.Snapshot()
				if len(got) != len(tc.after) {
					t.Fatalf("files = %v, want %v", got, tc.after)
				}
				for k, v := range tc.after {
					if got[k] != v {
						t.Fatalf("%s = %q, want %q", k, got[k], v)
					}
				}
			}
		})
	}
}

func TestGrepLimitAndGlobOrder(t *testing.T) {
	files := memfs(t, map[string]string{"b/x.md": "hit\nhit\n", "a.md": "hit\n", "alpha-b.md": "", "alpha/c.md": ""})
	tk := builtinKit(t, files)
	res := execTool(t, tk, "grep", map[string]any{"pattern": "hit", "limit": 2.0})
	if res.Output != "a.md:1:hit\nb/x.md:1:hit" || res.Metadata["total"] != 3 {
		t.Fatalf("grep = %+v", res)
	}
	res = execTool(t, tk, "glob", map[string]any{"pattern": "**/*.md"})
	if res.Output != "a.md\nalpha-b.md\nalpha/c.md\nb/x.md" {
		t.Fatalf("glob = %q", res.Output)
	}
}

func TestCleanPath(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"a/b.txt", "a/b.txt", ""},
		{"/a//b/./c.txt", "a/b/c.txt", ""},
		{`a\b.txt`, "a/b.txt", ""},
		{"a/../b.txt", "b.txt", ""},
		{"../b.txt", "", "leaves"},
		{"a/../../b", "", "leaves"},
		{"", "", "names no file"},
		{"/", "", "names no file"},
		{"a\x00b", "", "NUL"},
	}
	for _, tc := range tests {
		got, err := CleanPath(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("CleanPath(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestMemFSIsAnFS(t *testing.T) {
	m := memfs(t, map[string]string{"skills/a/SKILL.md": "x", "top.txt": "y"})
	var seen []string
	err := fs.WalkDir(m, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		seen = append(seen, p)
		return nil
	})
	if err != nil || strings.Join(seen, ",") != ".,skills,skills/a,skills/a/SKILL.md,top.txt" {
		t.Fatalf("walk = %v, %v", seen, err)
	}
	if b, err := fs.ReadFile(m, "top.txt"); err != nil || string(b) != "y" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	if _, err := m.Open("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open(missing) = %v", err)
	}
	var changes []string
	m.OnChange = func(name string, _ []byte, removed bool) {
		if removed {
			name = "-" + name
		}
		changes = append(changes, name)
	}
	if err := m.WriteFile("skills", []byte("x")); err == nil {
		t.Fatal("writing over a folder must fail")
	}
	_ = m.WriteFile("n.txt", []byte("1"))
	_ = m.Remove("n.txt")
	if err := m.Remove("n.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("second Remove = %v", err)
	}
	if strings.Join(changes, ",") != "n.txt,-n.txt" {
		t.Fatalf("OnChange saw %v", changes)
	}
}
