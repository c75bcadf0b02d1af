package core

import (
	"errors"
	"io/fs"
	"path"

	"github.com/toolnexus/wasm/core/tool"
)

// The Go port's skills API over directories; core's own is LoadSkillsFS
// over any fs.FS.

// SkillInfo is one discovered skill in the Go port's shape.
type SkillInfo struct {
	Name        string
	Description string
	// Location is the SKILL.md's path (in the directories' union).
	Location string
	// Content is the instructions after the frontmatter.
	Content string
	// Origin is the directory it was found in.
	Origin string
	// Base is the skill's folder (Location's directory).
	Base string
	// Resources is left empty: core's skill tool lists a skill's files
	// when the model loads it.
	Resources []string
}

// SkillSource is what LoadSkills found: the skills by name and the "skill"
// tool that loads one.
type SkillSource struct {
	Skills map[string]SkillInfo
	Tool   Tool
	set    *SkillSet
}

// Prompt is the system-prompt section listing the skills ("" when none has
// a description); its wording is core's (SkillSet.Prompt).
func (s *SkillSource) Prompt() string {
	if s == nil {
		return ""
	}
	return s.set.Prompt()
}

// Set returns core's SkillSet behind the source (with Problems: the
// SKILL.md files skipped, and why).
func (s *SkillSource) Set() *SkillSet {
	if s == nil {
		return nil
	}
	return s.set
}

// LoadSkills discovers every **/SKILL.md under dirs, as the Go port's does:
// the first skill of a name wins, a directory that cannot be read
// contributes nothing. It never fails: a program that does not import
// core/skills, or runs under js/wasm (no host files, see ErrNoHostFiles),
// gets an empty source.
func LoadSkills(dirs ...string) *SkillSource {
	src := &SkillSource{Skills: map[string]SkillInfo{}}
	fsys := dirsFS(dirs)
	if fsys == nil {
		return src
	}
	set, err := LoadSkillsFS(fsys)
	if err != nil {
		return src
	}
	src.set, src.Tool = set, set.Tool()
	for _, sk := range set.Skills {
		src.Skills[sk.Name] = SkillInfo{Name: sk.Name, Description: sk.Description, Location: sk.Path,
			Content: sk.Instructions, Base: path.Dir(sk.Path), Origin: originOf(fsys, sk.Path)}
	}
	return src
}

// ErrNoHostFiles is the error of the Go port's path-taking APIs
// (Options.SkillsDir, an MCP config file path) under js/wasm, where core
// reads no files of the host's: pass an fs.FS (Options.Skills) or JSON
// bytes instead.
var ErrNoHostFiles = errors.New("core: this build reads no host files (js/wasm): pass an fs.FS or JSON bytes instead of a path")

// dirsFS overlays directories (core/tool's HostFiles, registered by
// core/skills and core/mcp); nil when neither is linked.
func dirsFS(dirs []string) fs.FS {
	if f := tool.Files(); f != nil {
		return f.DirsFS(dirs)
	}
	return nil
}

// originOf names the directory a skill's path comes from.
func originOf(fsys fs.FS, p string) string {
	if o, ok := fsys.(interface{ Origin(string) string }); ok {
		return o.Origin(p)
	}
	return ""
}
