package toolnexus

import (
	"io/fs"
	"sort"
	"strings"

	"github.com/toolnexus/wasm/core/tool"
)

// The Go port's skills API (LoadSkillsWith, ListSkills, Options.Skills as
// data) in the port's shapes. Only toolnexus uses it; core's own skills are
// core/skills over an fs.FS.

// SkillDef is a skill supplied as data rather than as a SKILL.md file.
// Base is its logical base ("skill://<name>/" when empty); Resources, when
// set, are listed by the skill tool as the skill's files.
type SkillDef struct {
	Name        string
	Description string
	Content     string
	Resources   []string
	Base        string
}

// SkillInfo is one skill in the Go port's shape.
type SkillInfo struct {
	Name        string
	Description string
	// Location is the SKILL.md's path (absolute for a directory's skill,
	// the path in the fs.FS for Options.SkillsFS) or, for a SkillDef, its
	// logical base.
	Location string
	// Content is the instructions after the frontmatter.
	Content string
	// Origin is "fs" for a SKILL.md file, "logical" for a SkillDef.
	Origin    string
	Resources []string
	// Base is a SkillDef's logical base ("" for a file's skill).
	Base string
}

// SkillSkip is a candidate that did not become a skill, and why.
type SkillSkip struct {
	Location string
	Reason   tool.SkillSkipReason
}

// SkillInventory is what ListSkills found, before any filter.
type SkillInventory struct {
	Skills  []SkillInfo
	Skipped []SkillSkip
}

// LoadSkillsOptions are the sources and settings of LoadSkillsWith and
// ListSkills: directories, then data skills (the first skill of a name
// wins), a filter by name (all true-valued names are an allowlist; only
// false values are a drop-list; nil keeps all), and SampleLimit, how many
// of a skill's files the skill tool lists (0 means 10, -1 none).
type LoadSkillsOptions struct {
	Dirs        []string
	Skills      []SkillDef
	Filter      map[string]bool
	SampleLimit int
	// FS is core's own extra source, read before Dirs (Options.SkillsFS).
	FS fs.FS
}

// loadedSkills is what the registered skill sources made of
// LoadSkillsOptions: every skill found (unfiltered, in discovery order),
// the candidates skipped, the filtered skills by name, and the "skill"
// tool over those.
type loadedSkills struct {
	All     []SkillInfo
	Skipped []SkillSkip
	Skills  map[string]SkillInfo
	Tool    tool.Tool
	// Problems are core's detailed reasons (with the parse error) for the
	// skipped SKILL.md files, for SkillSet.Problems.
	Problems []*tool.SkillProblem
	// Prompt is Prompt(Skills).
	Prompt string
	// Set is core's SkillSet of the kept skills (Path is the Location),
	// with Problems and the provider's error among them.
	Set *tool.SkillSet
}

// SkillToolDescription is the description of the skill tool the port's
// skill options build. Its layout follows the Go port (what the tool is for,
// what it returns, which names are valid); the prose is ours: we match the
// port's behaviour and structure, not its text.
const SkillToolDescription = "Loads one of the skills named in the system prompt, when the current task calls for it.\n\n" +
	"The result holds the skill's full instructions and lists files kept beside it (scripts, templates, references) that the instructions may point to.\n\n" +
	"Pass a name exactly as the system prompt lists it."

// SkillsPromptPreamble opens the skills section of the system prompt that
// the port's skill options build (our wording; see SkillToolDescription).
const SkillsPromptPreamble = "Each skill below is a set of instructions for one kind of task.\n" +
	"When a task matches a skill's description, load it with the skill tool before you start."

// Prompt is the Go port's system-prompt section listing the
// skills that have a description, sorted by name; "No skills are currently
// available." when none has one.
func skillsListPrompt(skills map[string]SkillInfo) string {
	var described []string // sort.Strings: no sort.Slice reflection
	for name, sk := range skills {
		if sk.Description != "" {
			described = append(described, name)
		}
	}
	if len(described) == 0 {
		return "No skills are currently available."
	}
	sort.Strings(described)
	lines := []string{SkillsPromptPreamble, "", "## Available Skills"}
	for _, name := range described {
		lines = append(lines, "- **"+name+"**: "+skills[name].Description)
	}
	return strings.Join(lines, "\n")
}
