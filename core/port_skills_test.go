//go:build !js

package core

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Conformance with the Go port's skills over directories (issue 17).

func writeSkill(t *testing.T, dir, folder, name, desc, body string) {
	t.Helper()
	p := filepath.Join(dir, folder, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("---\nname: "+name+"\ndescription: "+desc+"\n---\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIssue17LoadSkillsDirs: LoadSkills(dirs...) finds the skills of every
// directory, the first of a name winning, and Options.SkillsDir gives the
// toolkit the skill tool.
func TestIssue17LoadSkillsDirs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeSkill(t, a, "pdf", "pdf", "work with PDFs", "Use pdftotext.")
	writeSkill(t, b, "pdf2", "pdf", "the second pdf", "ignored")
	writeSkill(t, b, "git", "git", "commit well", "Write small commits.")
	src := LoadSkills(a, b, filepath.Join(a, "missing"))
	if len(src.Skills) != 2 || src.Skills["pdf"].Content != "Use pdftotext." || src.Skills["pdf"].Origin != a ||
		src.Skills["git"].Origin != b || src.Skills["git"].Location != "git/SKILL.md" || src.Skills["git"].Base != "git" {
		t.Fatalf("skills = %+v", src.Skills)
	}
	if src.Tool.Name != "skill" || !strings.Contains(src.Prompt(), "commit well") {
		t.Fatalf("tool %q prompt %q", src.Tool.Name, src.Prompt())
	}
	res := safeExecute(src.Tool, map[string]any{"name": "git"}, &ToolContext{Ctx: context.Background()})
	if res.IsError || !strings.Contains(res.Output, "Write small commits.") {
		t.Fatalf("skill tool = %+v", res)
	}
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, SkillsDir: []string{a, b}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tk.Get("skill"); !ok || len(tk.Skills().Skills) != 2 {
		t.Fatalf("toolkit tools %v", toolNames(tk))
	}
	if empty := LoadSkills(); len(empty.Skills) != 0 || empty.Prompt() != "" {
		t.Fatalf("no dirs: %+v", empty)
	}
}
