//go:build !js

package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// home writes files into a new directory.
func home(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestComposeSoulFollowsBootstrapOrder(t *testing.T) {
	dir := home(t, map[string]string{
		"MEMORY.md": "- likes tea", "SOUL.md": "  I am Rho.  ", "AGENTS.md": "rules", "notes.txt": "not a bootstrap file",
	})
	soul, found := ComposeSoul(dir)
	if strings.Join(found, ",") != "AGENTS.md,SOUL.md,MEMORY.md" {
		t.Errorf("found %v", found)
	}
	want := "## AGENTS.md\n\nrules\n\n## SOUL.md\n\nI am Rho.\n\n## MEMORY.md\n\n- likes tea"
	if soul != want {
		t.Errorf("soul = %q, want %q", soul, want)
	}
}

func TestComposeSoulCutsAnOversizedFile(t *testing.T) {
	dir := home(t, map[string]string{"SOUL.md": strings.Repeat("y", bootstrapCap+10)})
	soul, _ := ComposeSoul(dir)
	if !strings.HasSuffix(soul, "[truncated: exceeds 2 MB bootstrap cap]") || len(soul) > bootstrapCap+100 {
		t.Errorf("soul is %d bytes, ends %q", len(soul), soul[len(soul)-50:])
	}
}

func TestFromDirBuildsThePersona(t *testing.T) {
	dir := home(t, map[string]string{"SOUL.md": "I am Rho."})
	off := false
	cases := []struct {
		name       string
		opts       FromDirOptions
		wantName   string
		wantModel  string
		wantMemory bool
	}{
		{"defaults", FromDirOptions{}, filepath.Base(dir), "inherit", true},
		{"overrides", FromDirOptions{Name: "rho", Model: "m-1"}, "rho", "m-1", true},
		{"read-only", FromDirOptions{Memory: &off}, filepath.Base(dir), "inherit", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := FromDir(dir, tc.opts)
			hasMemory := false
			for _, tl := range a.Spec.Tools {
				hasMemory = hasMemory || tl.Name == "memory"
			}
			if a.Name != tc.wantName || a.Spec.Model != tc.wantModel || hasMemory != tc.wantMemory {
				t.Errorf("agent %q model %q memory %v", a.Name, a.Spec.Model, hasMemory)
			}
			if !strings.Contains(a.Spec.Soul, "## SOUL.md\n\nI am Rho.") {
				t.Errorf("soul = %q", a.Spec.Soul)
			}
		})
	}
}

func TestMemoryToolEditsTheHome(t *testing.T) {
	dir := home(t, map[string]string{"MEMORY.md": "- likes tea\n"})
	tool := MemoryTool(dir)
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	steps := []struct {
		name    string
		args    map[string]any
		isError bool
		file    string
		want    string // the file's whole text afterwards
	}{
		{"add appends an entry", map[string]any{"action": "add", "text": "walks daily"}, false, "MEMORY.md", "- likes tea\n- walks daily\n"},
		{"replace swaps text", map[string]any{"action": "replace", "text": "tea", "with": "coffee"}, false, "MEMORY.md", "- likes coffee\n- walks daily\n"},
		{"remove deletes text", map[string]any{"action": "remove", "text": "- walks daily\n"}, false, "MEMORY.md", "- likes coffee\n"},
		{"a missing text is an error and changes nothing", map[string]any{"action": "remove", "text": "jazz"}, true, "MEMORY.md", "- likes coffee\n"},
		{"an unknown action is an error", map[string]any{"action": "forget", "text": "x"}, true, "MEMORY.md", "- likes coffee\n"},
		{"target user writes USER.md", map[string]any{"action": "add", "target": "user", "text": "is called Ana"}, false, "USER.md", "- is called Ana\n"},
	}
	for _, s := range steps {
		res, err := tool.Execute(s.args, nil)
		if err != nil || res.IsError != s.isError {
			t.Fatalf("%s: %+v, %v", s.name, res, err)
		}
		if got := read(s.file); got != s.want {
			t.Fatalf("%s: %s = %q, want %q", s.name, s.file, got, s.want)
		}
	}
}
