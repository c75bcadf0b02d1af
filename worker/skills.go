package worker

import (
	"embed"
	"io/fs"
	"strings"

	"github.com/toolnexus/wasm/core"
)

// bundled holds the skills that ship inside the Worker: each folder under
// skills/ with a SKILL.md (YAML frontmatter: name, description) becomes one
// entry of the "skill" tool and of the system prompt.
//
//go:embed skills
var bundled embed.FS

// skills is the skills source of a request's toolkit: the bundled skills/
// folder when the Worker's SKILLS setting is "on", else nil. It is also nil
// in a build without a skills source (core.SkillsLinked(): wasm/worker
// imports core/skills).
func (h *Handler) skills() fs.FS {
	if !core.SkillsLinked() || strings.TrimSpace(h.opts.Getenv("SKILLS")) != "on" {
		return nil
	}
	sub, err := fs.Sub(bundled, "skills")
	if err != nil {
		return nil // cannot happen: "skills" is a valid path
	}
	return sub
}

// withSkills appends the toolkit's skills section to the configured system
// prompt.
func withSkills(prompt string, tk *core.Toolkit) string {
	skills := tk.SkillsPrompt()
	switch {
	case skills == "":
		return prompt
	case strings.TrimSpace(prompt) == "":
		return skills
	}
	return prompt + "\n\n" + skills
}
