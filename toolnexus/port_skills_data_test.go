package toolnexus

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Conformance with the Go port's skills as data: Options.Skills,
// SkillProvider, SkillsFilter, SkillSampleLimit, LoadSkillsWith. These read
// no files, so they hold under js/wasm too.

func dataSkills() []SkillDef {
	return []SkillDef{
		{Name: "deploy", Description: "ship a release", Content: "  Run the pipeline.  ", Resources: []string{"r1.md", "r2.md", "r3.md"}},
		{Name: "lint", Description: "fix style", Content: "Run gofmt.", Base: "mem://lint/"},
		{Name: "hidden", Content: "no description"},
	}
}

// TestPortSkillsAsData: data skills load through the toolkit with the
// port's tool output, prompt and errors.
func TestPortSkillsAsData(t *testing.T) {
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, Skills: dataSkills(), SkillSampleLimit: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := "<skill_content name=\"deploy\">\n# Skill: deploy\n\nRun the pipeline.\n\nBase directory for this skill: skill://deploy/\n" +
		"Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\n" +
		"Note: file list is sampled.\n\n<skill_files>\n<file>r1.md</file>\n<file>r2.md</file>\n</skill_files>\n</skill_content>"
	res, err := tk.Execute(context.Background(), "skill", map[string]any{"name": "deploy"})
	if err != nil || res.IsError || res.Output != want || res.Metadata["dir"] != "skill://deploy/" || res.Metadata["name"] != "deploy" {
		t.Fatalf("deploy = %+v, %v", res, err)
	}
	res, _ = tk.Execute(context.Background(), "skill", map[string]any{"name": "lint"})
	if strings.Contains(res.Output, "<skill_files>") || !strings.Contains(res.Output, "Base directory for this skill: mem://lint/\n") {
		t.Fatalf("lint (no resources) = %q", res.Output)
	}
	res, _ = tk.Execute(context.Background(), "skill", map[string]any{"name": "nope"})
	if !res.IsError || res.Output != `Skill "nope" not found. Available skills: deploy, hidden, lint` {
		t.Fatalf("unknown = %+v", res)
	}
	wantPrompt := SkillsPromptPreamble + "\n\n## Available Skills\n- **deploy**: ship a release\n- **lint**: fix style"
	if tk.SkillsPrompt() != wantPrompt {
		t.Fatalf("prompt %q", tk.SkillsPrompt())
	}
	if set := tk.Skills(); set == nil || len(set.Skills) != 3 || set.Skills[0].Path != "skill://deploy/" {
		t.Fatalf("Skills() = %+v", set)
	}
}

// TestPortSkillsFilterAndProvider: the provider's skills join the data
// ones, its error leaves the others loaded (and is a Problem), and the
// filter is an allowlist when any value is true, else a drop-list.
func TestPortSkillsFilterAndProvider(t *testing.T) {
	provider := func(ctx context.Context) ([]SkillDef, error) {
		if ctx == nil {
			return nil, errors.New("no ctx")
		}
		return []SkillDef{{Name: "extra", Description: "from the provider", Content: "E"}}, nil
	}
	for _, c := range []struct {
		filter map[string]bool
		want   string
	}{
		{nil, "deploy,extra,hidden,lint"},
		{map[string]bool{"lint": true, "extra": true, "deploy": false}, "extra,lint"},
		{map[string]bool{"lint": false, "missing": false}, "deploy,extra,hidden"},
	} {
		tk, err := CreateToolkit(context.Background(), Options{Builtins: false, Skills: dataSkills(), SkillProvider: provider, SkillsFilter: c.filter})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := tk.Execute(context.Background(), "skill", map[string]any{"name": "?"})
		if !strings.HasSuffix(res.Output, "Available skills: "+strings.ReplaceAll(c.want, ",", ", ")) {
			t.Fatalf("filter %v: %q", c.filter, res.Output)
		}
		src := LoadSkillsWith(LoadSkillsOptions{Skills: append(dataSkills(), SkillDef{Name: "extra", Description: "x"}), Filter: c.filter})
		if len(src.Skills) != strings.Count(c.want, ",")+1 {
			t.Fatalf("LoadSkillsWith filter %v: %v", c.filter, src.Skills)
		}
	}
	failing := func(context.Context) ([]SkillDef, error) { return nil, errors.New("catalog down") }
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, Skills: dataSkills()[:1], SkillProvider: failing})
	if err != nil {
		t.Fatal(err)
	}
	set := tk.Skills()
	if len(set.Skills) != 1 || len(set.Problems) != 1 || !strings.Contains(set.Problems[0].Error(), "catalog down") {
		t.Fatalf("failing provider: %+v", set)
	}
	panicking := func(context.Context) ([]SkillDef, error) { panic("boom") }
	if _, err := CreateToolkit(context.Background(), Options{Builtins: false, SkillProvider: panicking}); err != nil {
		t.Fatalf("panicking provider: %v", err)
	}
}

// TestPortSkillsFSBeside: core's SkillsFS alone keeps core's wording;
// beside a port option it is one more source in the port's layout.
func TestPortSkillsFSBeside(t *testing.T) {
	fsys, err := NewMemFS(map[string]string{"notes/SKILL.md": "---\nname: notes\ndescription: tidy notes\n---\nWrite notes."})
	if err != nil {
		t.Fatal(err)
	}
	own, err := CreateToolkit(context.Background(), Options{Builtins: false, SkillsFS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(own.SkillsPrompt(), SkillsPromptPreamble) || !strings.Contains(own.SkillsPrompt(), "- notes: tidy notes") {
		t.Fatalf("SkillsFS prompt %q", own.SkillsPrompt())
	}
	both, err := CreateToolkit(context.Background(), Options{Builtins: false, SkillsFS: fsys, Skills: dataSkills()[1:2]})
	if err != nil {
		t.Fatal(err)
	}
	if want := SkillsPromptPreamble + "\n\n## Available Skills\n- **lint**: fix style\n- **notes**: tidy notes"; both.SkillsPrompt() != want {
		t.Fatalf("both prompt %q", both.SkillsPrompt())
	}
	res, _ := both.Execute(context.Background(), "skill", map[string]any{"name": "notes"})
	if !strings.HasPrefix(res.Output, "<skill_content name=\"notes\">\n# Skill: notes\n\nWrite notes.\n\nBase directory for this skill: notes\n") {
		t.Fatalf("notes = %q", res.Output)
	}
}
