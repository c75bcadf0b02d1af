package core

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
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
// contributes nothing. It never fails; a program that does not import
// core/skills gets an empty source (LoadSkillsFS says why).
func LoadSkills(dirs ...string) *SkillSource {
	src := &SkillSource{Skills: map[string]SkillInfo{}}
	set, err := LoadSkillsFS(dirsFS(dirs))
	if err != nil {
		return src
	}
	src.set, src.Tool = set, set.Tool()
	for _, sk := range set.Skills {
		src.Skills[sk.Name] = SkillInfo{Name: sk.Name, Description: sk.Description, Location: sk.Path,
			Content: sk.Instructions, Base: path.Dir(sk.Path), Origin: dirOf(dirs, sk.Path)}
	}
	return src
}

// dirsFS overlays directories: a path is the first directory's that has
// it, and a folder lists the entries of all of them.
func dirsFS(dirs []string) fs.FS {
	u := unionFS{}
	for _, d := range dirs {
		u = append(u, os.DirFS(d))
	}
	return u
}

// dirOf names the directory of dirs where p is found first.
func dirOf(dirs []string, p string) string {
	for _, d := range dirs {
		if _, err := fs.Stat(os.DirFS(d), p); err == nil {
			return d
		}
	}
	return ""
}

type unionFS []fs.FS

func (u unionFS) Open(name string) (fs.File, error) {
	err := error(&fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist})
	for _, f := range u {
		file, e := f.Open(name)
		if e == nil {
			return file, nil
		}
		if !errors.Is(e, fs.ErrNotExist) {
			err = e
		}
	}
	return nil, err
}

func (u unionFS) ReadDir(name string) ([]fs.DirEntry, error) {
	var out []fs.DirEntry
	seen := map[string]bool{}
	found := false
	for _, f := range u {
		list, err := fs.ReadDir(f, name)
		if err != nil {
			continue
		}
		found = true
		for _, e := range list {
			if !seen[e.Name()] {
				seen[e.Name()] = true
				out = append(out, e)
			}
		}
	}
	if !found {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}
