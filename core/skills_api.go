package core

import (
	"errors"
	"io/fs"

	"github.com/toolnexus/wasm/core/tool"
)

// Skills are discovered by package core/skills, which registers itself with
// core/tool when a program imports it; the types live in core/tool.

// SourceSkill marks the skill loader tool.
const SourceSkill = tool.SourceSkill

// Skill is one discovered skill (a SKILL.md with YAML frontmatter).
type Skill = tool.Skill

// SkillProblem is a SKILL.md that did not become a skill, and why.
type SkillProblem = tool.SkillProblem

// SkillSet is what LoadSkills found.
type SkillSet = tool.SkillSet

// ErrSkillsNotLinked is the error of LoadSkills and CreateToolkit when a
// program asks for skills without importing core/skills.
var ErrSkillsNotLinked = errors.New(`core: skills not linked: import _ "github.com/toolnexus/wasm/core/skills"`)

// SkillsLinked reports whether the program links the skills loader
// (imports core/skills).
func SkillsLinked() bool { return tool.Skills() != nil }

// LoadSkillsFS discovers every **/SKILL.md in fsys (see core/skills.Load):
// core's loader, over any file system (a MemFS in a page or a Worker).
func LoadSkillsFS(fsys fs.FS) (*SkillSet, error) {
	load := tool.Skills()
	if load == nil {
		return nil, ErrSkillsNotLinked
	}
	return load(fsys)
}

// LoadedSkills is a skill source loaded by another loader, for
// Options.LoadedSkills: the skills found, the "skill" tool over them and
// the system-prompt section that lists them.
type LoadedSkills struct {
	Set    *SkillSet
	Tool   Tool
	Prompt string
}

// Skills returns what the toolkit's skills source found, or nil.
func (tk *Toolkit) Skills() *SkillSet {
	if tk == nil {
		return nil
	}
	return tk.skills
}
