package skills

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/vfs"
)

func skillFS() fstest.MapFS {
	return fstest.MapFS{
		"skills/notes/SKILL.md":           {Data: []byte("---\nname: notes\ndescription: >\n  Keep tidy notes\n  in markdown.\nlicense: MIT\nmetadata:\n  owner: docs\n---\n# Notes\n\nWrite notes under notes/.\n")},
		"skills/notes/templates/daily.md": {Data: []byte("# Day")},
		"skills/notes/scripts/check.sh":   {Data: []byte("true")},
		"skills/plain/SKILL.md":           {Data: []byte("---\nname: plain\n---\nNo description: not listed in the prompt.")},
		"skills/quoted/SKILL.md":          {Data: []byte("---\r\nname: \"quoted\"\r\ndescription: 'It''s quoted'\r\n---\r\nBody\r\n")},
		"skills/broken/SKILL.md":          {Data: []byte("---\nname: broken\ndescription: [unclosed\n---\nbody")},
		"skills/colon/SKILL.md":           {Data: []byte("---\nname: colon\ndescription: a: b\n---\nbody")},
		"skills/nofront/SKILL.md":         {Data: []byte("# just markdown")},
		"skills/noname/SKILL.md":          {Data: []byte("---\ndescription: who am I\n---\n")},
		"skills/unclosed/SKILL.md":        {Data: []byte("---\nname: unclosed\n")},
		"skills/z-dup/SKILL.md":           {Data: []byte("---\nname: notes\ndescription: second of the name\n---\n")},
		"skills/node_modules/x/SKILL.md":  {Data: []byte("---\nname: hidden\ndescription: never found\n---\n")},
		"other/readme.md":                 {Data: []byte("not a skill")},
	}
}

func TestLoad(t *testing.T) {
	set, err := Load(skillFS())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range set.Skills {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "notes,plain,quoted" {
		t.Fatalf("skills = %v", names)
	}
	notes, _ := set.Get("notes")
	if notes.Description != "Keep tidy notes in markdown." || notes.Instructions != "# Notes\n\nWrite notes under notes/." {
		t.Fatalf("notes = %+v", notes)
	}
	if q, _ := set.Get("quoted"); q.Description != "It's quoted" || q.Instructions != "Body" {
		t.Fatalf("quoted = %+v", q)
	}
	problems := map[string]string{}
	for _, p := range set.Problems {
		problems[p.Path] = p.Error()
	}
	for path, want := range map[string]string{
		"skills/broken/SKILL.md":   "malformed frontmatter",
		"skills/colon/SKILL.md":    "malformed frontmatter",
		"skills/nofront/SKILL.md":  "no YAML frontmatter",
		"skills/noname/SKILL.md":   "no name",
		"skills/unclosed/SKILL.md": "no closing ---",
		"skills/z-dup/SKILL.md":    `"notes" is already used by skills/notes/SKILL.md`,
	} {
		if !strings.Contains(problems[path], want) {
			t.Errorf("problem for %s = %q, want %q", path, problems[path], want)
		}
	}
	if len(problems) != 6 {
		t.Errorf("problems = %v", problems)
	}
}

func TestSkillTool(t *testing.T) {
	set, err := Load(skillFS())
	if err != nil {
		t.Fatal(err)
	}
	skill := set.Tool()
	if skill.Name != "skill" || skill.Source != tool.SourceSkill {
		t.Fatalf("tool = %+v", skill)
	}
	prompt := set.Prompt()
	if !strings.Contains(prompt, "- notes: Keep tidy notes in markdown.") || !strings.Contains(prompt, "- quoted: It's quoted") || strings.Contains(prompt, "plain") {
		t.Fatalf("prompt = %q", prompt)
	}
	tests := []struct {
		name, want string
		isError    bool
	}{
		{"notes", "<skill name=\"notes\" folder=\"skills/notes\">\n# Notes\n\nWrite notes under notes/.\n\nFiles in the skill's folder (2 of 2; paths relative to it):\n- scripts/check.sh\n- templates/daily.md\n</skill>", false},
		{"plain", "No description: not listed in the prompt.", false},
		{"broken", `no skill is named "broken" (skills: notes, plain, quoted)`, true},
	}
	for _, tc := range tests {
		res, err := skill.Execute(map[string]any{"name": tc.name}, &tool.ToolContext{Ctx: context.Background()})
		if err != nil || res.IsError != tc.isError || !strings.Contains(res.Output, tc.want) {
			t.Errorf("skill %s = %+v, %v; want %q", tc.name, res, err, tc.want)
		}
	}
	if empty, err := Load(nil); err != nil || empty.Prompt() != "" {
		t.Fatalf("no skills source: prompt %q, %v", empty.Prompt(), err)
	}
}

func TestSkillsFromMemFS(t *testing.T) {
	m, err := vfs.NewMemFS(map[string]string{"/a/SKILL.md": "---\nname: a\ndescription: from memory\n---\nhi"})
	if err != nil {
		t.Fatal(err)
	}
	set, err := Load(m)
	if err != nil || len(set.Skills) != 1 || set.Skills[0].Path != "a/SKILL.md" {
		t.Fatalf("set = %+v, %v", set, err)
	}
}
