package tool

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sort"
	"strings"
)

// SourceSkill marks the skill loader tool.
const SourceSkill ToolSource = "skill"

// Skill is one discovered skill: a SKILL.md with YAML frontmatter
//
//	---
//	name: release-notes
//	description: Write release notes from a list of merged changes.
//	---
//	(instructions, markdown)
type Skill struct {
	Name        string
	Description string
	// Path is the SKILL.md's path in the skills fs.FS; its folder is the
	// skill's folder.
	Path string
	// Instructions is the body after the frontmatter.
	Instructions string
}

// SkillProblem is a SKILL.md that did not become a skill, and why.
type SkillProblem struct {
	Path string
	Err  error
	// Reason is the Go port's name for why (SkipMalformed, …).
	Reason SkillSkipReason
}

func (p *SkillProblem) Error() string { return fmt.Sprintf("skill %s: %v", p.Path, p.Err) }
func (p *SkillProblem) Unwrap() error { return p.Err }

// SkillSet is what LoadSkills found.
type SkillSet struct {
	// makeTool builds the skill tool (core/skills' code, reached only
	// through the set so that a build without core/skills links none of it).
	makeTool func(*SkillSet) Tool
	Skills   []Skill // in discovery order (lexical by path)
	// Problems lists the SKILL.md files that were skipped: malformed or
	// missing frontmatter, no name, a name already taken, unreadable.
	Problems []*SkillProblem
}

// NewSkillSet is what core/skills' loader returns: the skills found, the
// SKILL.md files it skipped, and the maker of the set's skill tool.
func NewSkillSet(skills []Skill, problems []*SkillProblem, makeTool func(*SkillSet) Tool) *SkillSet {
	return &SkillSet{Skills: skills, Problems: problems, makeTool: makeTool}
}

// Get returns the skill of a name.
func (s *SkillSet) Get(name string) (Skill, bool) {
	if s == nil {
		return Skill{}, false
	}
	for _, sk := range s.Skills {
		if sk.Name == name {
			return sk, true
		}
	}
	return Skill{}, false
}

// Prompt is the system-prompt section listing the skills that have a
// description, sorted by name; "" when there is none.
// skillsByName sorts skills with sort.Sort, whose code every build links
// anyway; sort.Slice would add its own copy and reflection.
type skillsByName []Skill

func (s skillsByName) Len() int           { return len(s) }
func (s skillsByName) Less(i, j int) bool { return s[i].Name < s[j].Name }
func (s skillsByName) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

func (s *SkillSet) Prompt() string {
	if s == nil {
		return ""
	}
	var described []Skill
	for _, sk := range s.Skills {
		if sk.Description != "" {
			described = append(described, sk)
		}
	}
	if len(described) == 0 {
		return ""
	}
	sort.Sort(skillsByName(described))
	var b strings.Builder
	b.WriteString("## Skills\n\nThese skills hold instructions for particular tasks. When a task matches one, call the skill tool with its name to load it before you start.\n")
	for _, sk := range described {
		b.WriteString("\n- ")
		b.WriteString(sk.Name)
		b.WriteString(": ")
		b.WriteString(strings.Join(strings.Fields(sk.Description), " "))
	}
	return b.String()
}

// Tool is the one "skill" tool: given a skill's name it returns the
// skill's instructions and a sample of the other files in its folder. Its
// code is core/skills', which made the set.
func (s *SkillSet) Tool() Tool {
	if s == nil || s.makeTool == nil {
		return Tool{}
	}
	return s.makeTool(s)
}

// SkillSkipReason says why a candidate did not become a skill.
type SkillSkipReason string

// The reasons a SKILL.md or a data skill is skipped (SkillProblem.Reason; the
// names are the Go port's).
const (
	SkipMissingName   SkillSkipReason = "missing-name"
	SkipMalformed     SkillSkipReason = "malformed-frontmatter"
	SkipDuplicateName SkillSkipReason = "duplicate-name"
	SkipUnreadable    SkillSkipReason = "unreadable"
)
