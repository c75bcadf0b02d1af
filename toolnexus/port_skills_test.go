//go:build !js

package toolnexus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Conformance with the Go port's skills over directories.

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

// TestPortLoadSkillsDirs: LoadSkills(dirs...) finds the skills of every
// directory, the first of a name winning, and Options.SkillsDir gives the
// toolkit the skill tool.
func TestPortLoadSkillsDirs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeSkill(t, a, "pdf", "pdf", "work with PDFs", "Use pdftotext.")
	writeSkill(t, b, "pdf2", "pdf", "the second pdf", "ignored")
	writeSkill(t, b, "git", "git", "commit well", "Write small commits.")
	src := LoadSkills(a, b, filepath.Join(a, "missing"))
	if len(src.Skills) != 2 || src.Skills["pdf"].Content != "Use pdftotext." || src.Skills["pdf"].Origin != "fs" ||
		src.Skills["git"].Location != filepath.Join(b, "git", "SKILL.md") || src.Skills["git"].Base != "" {
		t.Fatalf("skills = %+v", src.Skills)
	}
	wantPrompt := SkillsPromptPreamble + "\n\n## Available Skills\n" +
		"- **git**: commit well\n- **pdf**: work with PDFs"
	if src.Tool.Name != "skill" || src.Prompt() != wantPrompt || src.Tool.Description != SkillToolDescription {
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
	if tk.SkillsPrompt() != wantPrompt {
		t.Fatalf("toolkit prompt %q", tk.SkillsPrompt())
	}
	if empty := LoadSkills(); len(empty.Skills) != 0 || empty.Prompt() != "No skills are currently available." {
		t.Fatalf("no dirs: %+v", empty)
	}
}

// TestPortSkillToolFileSample: a directory's skill loads as the port's
// <skill_content> block with a file:// base and its files (absolute, none
// named SKILL.md) up to SkillSampleLimit; -1 leaves the list out.
func TestPortSkillToolFileSample(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, dir, "pdf", "pdf", "work with PDFs", "\nUse pdftotext.\n")
	for _, f := range []string{"a.txt", "b.txt", "scripts/run.sh", "nested/SKILL.md"} {
		p := filepath.Join(dir, "pdf", filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	folder := filepath.Join(dir, "pdf")
	head := "<skill_content name=\"pdf\">\n# Skill: pdf\n\nUse pdftotext.\n\nBase directory for this skill: file://" +
		filepath.ToSlash(folder) + "\nRelative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\n"
	for _, c := range []struct {
		limit int
		want  string
	}{
		{0, head + "Note: file list is sampled.\n\n<skill_files>\n<file>" + filepath.Join(folder, "a.txt") + "</file>\n<file>" +
			filepath.Join(folder, "b.txt") + "</file>\n<file>" + filepath.Join(folder, "scripts", "run.sh") + "</file>\n</skill_files>\n</skill_content>"},
		{2, head + "Note: file list is sampled.\n\n<skill_files>\n<file>" + filepath.Join(folder, "a.txt") + "</file>\n<file>" +
			filepath.Join(folder, "b.txt") + "</file>\n</skill_files>\n</skill_content>"},
		{-1, head + "</skill_content>"},
	} {
		tk, err := CreateToolkit(context.Background(), Options{Builtins: false, SkillsDir: []string{dir}, SkillSampleLimit: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		res, err := tk.Execute(context.Background(), "skill", map[string]any{"name": "pdf"})
		if err != nil || res.IsError || res.Output != c.want {
			t.Fatalf("limit %d: %v\n%s\nwant\n%s", c.limit, err, res.Output, c.want)
		}
		if res.Metadata["name"] != "pdf" || res.Metadata["dir"] != folder {
			t.Fatalf("metadata %v", res.Metadata)
		}
	}
}

// TestPortListSkillsReasons: ListSkills reports every skill, before
// the filter, and each candidate skipped with the port's reason.
func TestPortListSkillsReasons(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, dir, "a", "alpha", "first", "A")
	writeSkill(t, dir, "b", "alpha", "again", "B")
	writeSkill(t, dir, "c", "", "nameless", "C")
	if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d", "SKILL.md"), []byte("---\nname: d\ndescription: [unclosed\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inv := ListSkills(LoadSkillsOptions{Dirs: []string{dir}, Skills: []SkillDef{{Name: "beta"}, {Description: "no name"}},
		Filter: map[string]bool{"beta": true}})
	var names []string
	for _, s := range inv.Skills {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "alpha,beta" {
		t.Fatalf("skills %v", names)
	}
	got := map[string]SkillSkipReason{}
	for _, s := range inv.Skipped {
		got[s.Location] = s.Reason
	}
	want := map[string]SkillSkipReason{
		filepath.Join(dir, "b", "SKILL.md"): SkipDuplicateName,
		filepath.Join(dir, "c", "SKILL.md"): SkipMissingName,
		filepath.Join(dir, "d", "SKILL.md"): SkipMalformed,
		"skill://":                          SkipMissingName,
	}
	if len(got) != len(want) {
		t.Fatalf("skipped %v", inv.Skipped)
	}
	for loc, r := range want {
		if got[loc] != r {
			t.Fatalf("skipped %v, want %s for %s", inv.Skipped, r, loc)
		}
	}
}
