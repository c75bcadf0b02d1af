package builtins

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/vfs"
)

// regexpMatcher makes grep behave the same in every build under test (the
// js/wasm build's default matcher is the host's RegExp).
func regexpMatcher(p string) (func(string) bool, error) {
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

// builtinKit is a toolkit of the built-ins alone over files.
func builtinKit(t *testing.T, files vfs.FileSystem) kit {
	t.Helper()
	return kitOf(tool.BuiltinsConfig{Files: files, Match: regexpMatcher})
}

// kit is the built-ins of one Tools call by name.
type kit map[string]tool.Tool

func kitOf(cfg tool.BuiltinsConfig) kit {
	k := kit{}
	for _, t := range Tools(cfg) {
		k[t.Name] = t
	}
	return k
}

func memfs(t *testing.T, files map[string]string) *vfs.MemFS {
	t.Helper()
	m, err := vfs.NewMemFS(files)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func execTool(t *testing.T, k kit, name string, args map[string]any) tool.ToolResult {
	t.Helper()
	tl, ok := k[name]
	if !ok {
		t.Fatalf("no built-in %q", name)
	}
	res, err := tl.Execute(args, &tool.ToolContext{Ctx: context.Background()})
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
