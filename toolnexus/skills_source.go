package toolnexus

import (
	"context"
	"errors"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/tool"
)

// The Go port's skills API: directories and data skills, filtered, behind
// a skill tool and a prompt in the port's layout (skills_*.go). Core's own
// is LoadSkillsFS over any fs.FS.

// The reasons of SkillSkip.
const (
	SkipMissingName   = tool.SkipMissingName
	SkipMalformed     = tool.SkipMalformed
	SkipDuplicateName = tool.SkipDuplicateName
	SkipUnreadable    = tool.SkipUnreadable
)

// SkillSource is what LoadSkillsWith found: the skills (after the filter)
// by name and the "skill" tool that loads one.
type SkillSource struct {
	Skills map[string]SkillInfo
	Tool   core.Tool
	set    *core.SkillSet
	// prompt is Prompt() as the loader made it, which Toolkit.SkillsPrompt
	// returns (so a build that never loads such skills links no prompt code).
	prompt string
}

// Prompt is the system-prompt section listing the skills that have a
// description, sorted by name, in the Go port's layout; "No skills are
// currently available." when none has one.
func (s *SkillSource) Prompt() string {
	if s == nil {
		return skillsListPrompt(nil)
	}
	return skillsListPrompt(s.Skills)
}

// Set returns core's core.SkillSet behind the source: every skill kept, and in
// Problems the SKILL.md files skipped with the reason in detail.
func (s *SkillSource) Set() *core.SkillSet {
	if s == nil {
		return nil
	}
	return s.set
}

// LoadSkills discovers every **/SKILL.md under dirs, as the Go port's does:
// LoadSkillsWith(LoadSkillsOptions{Dirs: dirs}).
func LoadSkills(dirs ...string) *SkillSource {
	return LoadSkillsWith(LoadSkillsOptions{Dirs: dirs})
}

// LoadSkillsWith loads skills from directories (the first skill of a name
// wins; a directory that cannot be read contributes nothing) and data
// skills, keeps those opts.Filter allows, and makes the "skill" tool over
// them. It never fails: under js/wasm directories are not read
// (ErrNoHostFiles).
func LoadSkillsWith(opts LoadSkillsOptions) *SkillSource {
	src, _ := loadSkillSources(context.Background(), opts, nil)
	return src
}

// ListSkills reports every skill opts' sources hold, before any filter,
// and every candidate skipped with its reason; it makes no tool.
func ListSkills(opts LoadSkillsOptions) *SkillInventory {
	got := loadPortSkills(context.Background(), opts, nil)
	return &SkillInventory{Skills: got.All, Skipped: got.Skipped}
}

// loadSkillSources runs the port's skill sources over core/skills' SKILL.md
// loader, which toolnexus always links (link.go); the error is
// core.ErrSkillsNotLinked should a program somehow lack it.
func loadSkillSources(ctx context.Context, opts LoadSkillsOptions, provider func(context.Context) ([]SkillDef, error)) (*SkillSource, error) {
	if !core.SkillsLinked() {
		return &SkillSource{Skills: map[string]SkillInfo{}}, core.ErrSkillsNotLinked
	}
	got := loadPortSkills(ctx, opts, provider)
	return &SkillSource{Skills: got.Skills, Tool: got.Tool, set: got.Set, prompt: got.Prompt}, nil
}

// portSkillsOption names the first of the Go port's skill options opts
// sets ("" when none).
func portSkillsOption(opts Options) string {
	switch {
	case len(opts.SkillsDir) > 0:
		return "Options.SkillsDir"
	case len(opts.Skills) > 0:
		return "Options.Skills"
	case opts.SkillProvider != nil:
		return "Options.SkillProvider"
	case len(opts.SkillsFilter) > 0:
		return "Options.SkillsFilter"
	case opts.SkillSampleLimit != 0:
		return "Options.SkillSampleLimit"
	}
	return ""
}

// toolkitSkills loads the toolkit's skills from the Go port's options
// (and SkillsFS, read first).
func toolkitSkills(ctx context.Context, opts Options) (*SkillSource, error) {
	if len(opts.SkillsDir) > 0 && tool.Files() == nil {
		return nil, ErrNoHostFiles
	}
	return loadSkillSources(ctx, LoadSkillsOptions{FS: opts.SkillsFS, Dirs: opts.SkillsDir, Skills: opts.Skills,
		Filter: opts.SkillsFilter, SampleLimit: opts.SkillSampleLimit}, opts.SkillProvider)
}

// ErrNoHostFiles is the error of the Go port's path-taking APIs
// (Options.SkillsDir, an MCP config file path) under js/wasm, where core
// reads no files of the host's: pass an fs.FS (Options.SkillsFS), data
// skills (Options.Skills) or JSON bytes instead.
var ErrNoHostFiles = errors.New("core: this build reads no host files (js/wasm): pass an fs.FS or JSON bytes instead of a path")
