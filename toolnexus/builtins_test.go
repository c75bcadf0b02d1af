package toolnexus

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestBuiltinsSwitchesPickTheTools(t *testing.T) {
	off, on := false, true
	cases := []struct {
		name string
		cfg  any
		want int
	}{
		{"default", nil, 10},
		{"false", false, 0},
		{"disabled beats enabled", BuiltinsConfig{Enabled: &on, Disabled: &on}, 0},
		{"enabled false", &BuiltinsConfig{Enabled: &off}, 0},
		{"tools map", BuiltinsConfig{Tools: map[string]bool{"bash": false, "unknown": false}}, 9},
		{"config object", map[string]any{"tools": map[string]any{"read": false, "write": false}}, 8},
		{"config object off", map[string]any{"disabled": true}, 0},
	}
	for _, c := range cases {
		if got := len(SelectBuiltins(c.cfg)); got != c.want {
			t.Errorf("%s: %d tools, want %d", c.name, got, c.want)
		}
	}
}

func TestHostsOwnToolShadowsABuiltin(t *testing.T) {
	mine := NativeTool("bash", "", nil, func(context.Context, map[string]any) (string, error) { return "mine", nil })
	tk, err := CreateToolkit(context.Background(), Options{ExtraTools: []Tool{mine}, McpConfig: map[string]any{"builtins": map[string]any{"tools": map[string]any{"glob": false}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if got, _ := tk.Get("bash"); got.Source != SourceNative {
		t.Fatalf("bash source %q, want the host's", got.Source)
	}
	if _, ok := tk.Get("glob"); ok {
		t.Fatal("glob is on although the config object turned it off")
	}
	if got, ok := tk.Get("read"); !ok || got.Source != SourceBuiltin {
		t.Fatalf("read = %v %q, want the built-in", ok, got.Source)
	}
}

func TestGlobMatches(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
	}{
		{"*.go", "a/b/c.go", true},
		{"*.go", "c.txt", false},
		{"a/*.go", "a/b/c.go", false},
		{"a/**/*.go", "a/b/c.go", true},
		{"**/*.go", "c.go", true},
		{"?.md", "x.md", true},
		{"a+b.txt", "a+b.txt", true},
	}
	for _, c := range cases {
		if got := globMatches(c.glob, c.path); got != c.want {
			t.Errorf("globMatches(%q, %q) = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
}

func runBuiltin(t *testing.T, name string, args map[string]any, tctx *ToolContext) ToolResult {
	t.Helper()
	for _, tl := range CreateBuiltinTools() {
		if tl.Name == name {
			res, err := tl.Execute(args, tctx)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return res
		}
	}
	t.Fatalf("no built-in %q", name)
	return ToolResult{}
}

func TestApplyPatchIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(f, []byte("a\nb\nc\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := runBuiltin(t, "apply_patch", map[string]any{"patchText": "*** Begin Patch\n*** Update File: " + f + "\n@@ c\n-b\n+B\n*** End Patch"}, nil)
	if ok.IsError {
		t.Fatal(ok.Output)
	}
	if got, _ := os.ReadFile(f); string(got) != "a\nb\nc\nB\n" {
		t.Fatalf("after the anchored hunk: %q", got)
	}
	added := filepath.Join(dir, "new", "n.txt")
	bad := runBuiltin(t, "apply_patch", map[string]any{"patchText": "*** Begin Patch\n*** Add File: " + added + "\n+x\n*** Delete File: " + filepath.Join(dir, "missing") + "\n*** End Patch"}, nil)
	if !bad.IsError || fileExists(added) {
		t.Fatalf("a failing section must leave every file alone: %+v, added exists %v", bad, fileExists(added))
	}
}

func TestQuestionSuspendsThenReturnsTheAnswer(t *testing.T) {
	args := map[string]any{"questions": []any{map[string]any{"question": "Which?", "options": []any{"x", "y"}}}}
	first := runBuiltin(t, "question", args, nil)
	req := PendingOf(first)
	if req == nil || req.Prompt != "Which? (options: x, y)" {
		t.Fatalf("first call: %+v", first)
	}
	again := runBuiltin(t, "question", args, &ToolContext{Answer: &Answer{ID: req.ID, Ok: true, Data: map[string]any{"answers": []any{"y"}}}})
	if again.Output != `{"answers":["y"]}` {
		t.Fatalf("answered: %q", again.Output)
	}
}

func TestBashReportsTheExitCode(t *testing.T) {
	res := runBuiltin(t, "bash", map[string]any{"command": "echo out; exit 4"}, nil)
	if runtime.GOOS == "js" {
		if !res.IsError || !strings.Contains(res.Output, "no shell") {
			t.Fatalf("under js: %+v", res)
		}
		return
	}
	if !res.IsError || res.Metadata["exitCode"] != 4 || !strings.Contains(res.Output, "out") {
		t.Fatalf("exit 4: %+v", res)
	}
}

func TestReadWindow(t *testing.T) {
	f := filepath.Join(t.TempDir(), "lines.txt")
	if err := os.WriteFile(f, []byte("one\ntwo\nthree"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		offset, limit any
		want          string
	}{
		{nil, nil, "one\ntwo\nthree"},
		{2, nil, "two\nthree"},
		{"2", 1, "two"},
		{0, 2, "one\ntwo"},
		{9, 1, ""},
		{1, "x", "one\ntwo\nthree"},
	}
	for _, c := range cases {
		args := map[string]any{"path": f}
		if c.offset != nil {
			args["offset"] = c.offset
		}
		if c.limit != nil {
			args["limit"] = c.limit
		}
		if got := runBuiltin(t, "read", args, nil); got.IsError || got.Output != c.want {
			t.Errorf("offset %v limit %v: %+v, want %q", c.offset, c.limit, got, c.want)
		}
	}
}

func TestGrepAndGlobStopAtTheLimit(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("hit\nhit\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		tool  string
		limit any
		want  int
	}{
		{"grep", nil, 6}, {"grep", 4, 4}, {"glob", nil, 3}, {"glob", "2", 2}, {"grep", 0, 0},
	}
	for _, c := range cases {
		args := map[string]any{"pattern": "hit", "path": dir}
		if c.tool == "glob" {
			args["pattern"] = "*.txt"
		}
		if c.limit != nil {
			args["limit"] = c.limit
		}
		res := runBuiltin(t, c.tool, args, nil)
		if n, _ := res.Metadata["count"].(int); n != c.want || (n > 0) != (res.Output != "") {
			t.Errorf("%s limit %v: %+v, want %d", c.tool, c.limit, res, c.want)
		}
	}
	one := runBuiltin(t, "grep", map[string]any{"pattern": "hit", "path": dir, "limit": 1}, nil)
	if want := filepath.Join(dir, "a.txt") + ":1:hit"; one.Output != want {
		t.Fatalf("grep line %q, want %q", one.Output, want)
	}
}
