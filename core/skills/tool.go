package skills

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io/fs"
	"path"
	"strings"

	"github.com/toolnexus/wasm/core/tool"
)

// skillSampleFiles is how many of a skill's other files the loader lists.
const skillSampleFiles = 20

// skillTool is the one "skill" tool over set: given a skill's name it
// returns the skill's instructions and a sample of the other files in its
// folder of fsys.
func skillTool(s *tool.SkillSet, fsys fs.FS) tool.Tool {
	return tool.Tool{
		Name:        "skill",
		Description: "Load a skill by name: its instructions and a list of the files beside it. Use it when the task matches a skill listed in the system prompt.",
		InputSchema: tool.ObjectSchema(`{
			"name": {"type": "string", "description": "The skill's name, as listed in the system prompt"}
		}`, "name"),
		Source: tool.SourceSkill,
		Execute: func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			name, _ := args["name"].(string)
			sk, ok := s.Get(name)
			if !ok {
				var names []string
				for _, k := range s.Skills {
					names = append(names, k.Name)
				}
				avail := "none"
				if len(names) > 0 {
					avail = strings.Join(names, ", ")
				}
				return tool.ToolResult{Output: fmt.Sprintf("no skill is named %q (skills: %s)", name, avail), IsError: true}, nil
			}
			dir := path.Dir(sk.Path)
			files, total := sample(fsys, dir)
			var b strings.Builder
			fmt.Fprintf(&b, "<skill name=%q folder=%q>\n%s\n", sk.Name, dir, sk.Instructions)
			if len(files) > 0 {
				fmt.Fprintf(&b, "\nFiles in the skill's folder (%d of %d; paths relative to it):\n", len(files), total)
				for _, f := range files {
					b.WriteString("- " + f + "\n")
				}
			}
			b.WriteString("</skill>")
			return tool.ToolResult{Output: b.String(), Metadata: map[string]any{"name": sk.Name, "folder": dir}}, nil
		},
	}
}

// sample lists up to skillSampleFiles files under dir other than its
// SKILL.md, sorted, and how many there are in all.
func sample(fsys fs.FS, dir string) ([]string, int) {
	var out []string
	total := 0
	_ = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.IsDir() && p != dir && (d.Name() == ".git" || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if dir == "." {
			rel = p
		}
		if rel == "SKILL.md" {
			return nil
		}
		total++
		if len(out) < skillSampleFiles {
			out = append(out, rel)
		}
		return nil
	})
	return out, total
}
