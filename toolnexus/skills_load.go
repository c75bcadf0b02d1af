package toolnexus

import (
	"context"
	"fmt"
	"io/fs"
	"path"

	"github.com/toolnexus/wasm/core/tool"
)

// The Go port's skill sources (LoadSkillsWith, ListSkills, the toolkit's
// Options.Skills/SkillsDir/SkillProvider): directories and data skills
// merged, filtered by name, behind a "skill" tool in the port's layout
// (skills_tool.go). SKILL.md files are read by core/skills' loader, which
// this package links (link.go).

// found is one skill and where its files are: fsys and folder for a
// SKILL.md's skill (root is the directory fsys stands for, "" for an
// fs.FS of the host's), nothing for a data skill.
type found struct {
	info   SkillInfo
	fsys   fs.FS
	folder string
	root   string
}

// loadPortSkills reads opts' sources in order (FS, Dirs, Skills, then the
// provider's), keeps the first skill of a name, and applies the filter.
func loadPortSkills(ctx context.Context, opts LoadSkillsOptions, provider func(context.Context) ([]SkillDef, error)) *loadedSkills {
	l := &loading{out: &loadedSkills{Skills: map[string]SkillInfo{}}, seen: map[string]bool{}}
	out := l.out
	if provider != nil {
		more, err := callProvider(ctx, provider)
		if err != nil {
			out.Problems = append(out.Problems, &tool.SkillProblem{Path: "SkillProvider", Err: err})
		}
		opts.Skills = append(append([]SkillDef(nil), opts.Skills...), more...)
	}
	if opts.FS != nil {
		l.fromFS(opts.FS, "")
	}
	for _, d := range hostDirs(opts.Dirs) {
		l.fromFS(d.fsys, d.root)
	}
	for i := range opts.Skills {
		d := &opts.Skills[i]
		base := d.Base
		if base == "" {
			base = "skill://" + d.Name + "/"
			if d.Name == "" {
				base = "skill://"
			}
		}
		if d.Name == "" {
			out.Skipped = append(out.Skipped, SkillSkip{Location: base, Reason: tool.SkipMissingName})
			continue
		}
		l.add(&found{info: SkillInfo{Name: d.Name, Description: d.Description, Location: base, Content: d.Content,
			Origin: "logical", Resources: append([]string{}, d.Resources...), Base: base}})
	}
	var kept []*found
	var set []tool.Skill
	for _, f := range l.all {
		out.All = append(out.All, f.info)
		if tool.AllowedByFilter(f.info.Name, opts.Filter) {
			out.Skills[f.info.Name] = f.info
			kept = append(kept, f)
			set = append(set, tool.Skill{Name: f.info.Name, Description: f.info.Description, Path: f.info.Location, Instructions: f.info.Content})
		}
	}
	out.Tool = portSkillTool(kept, opts.SampleLimit)
	out.Prompt = skillsListPrompt(out.Skills)
	t := out.Tool
	out.Set = tool.NewSkillSet(set, out.Problems, func(*tool.SkillSet) tool.Tool { return t })
	return out
}

// loading is one loadSources call's state.
type loading struct {
	out  *loadedSkills
	all  []*found
	seen map[string]bool
}

// add keeps f unless a skill of its name came first.
func (l *loading) add(f *found) {
	if l.seen[f.info.Name] {
		l.out.Skipped = append(l.out.Skipped, SkillSkip{Location: f.info.Location, Reason: tool.SkipDuplicateName})
		return
	}
	l.seen[f.info.Name] = true
	l.all = append(l.all, f)
}

// fromFS adds the skills of one file system; root, when set, is the host
// directory it stands for, which makes Location absolute. A file system
// that cannot be walked (a missing directory) adds nothing.
func (l *loading) fromFS(fsys fs.FS, root string) {
	load := tool.Skills()
	if load == nil {
		return
	}
	set, err := load(fsys)
	if err != nil {
		return
	}
	for _, p := range set.Problems {
		loc := hostPath(root, p.Path)
		l.out.Problems = append(l.out.Problems, &tool.SkillProblem{Path: loc, Err: p.Err})
		l.out.Skipped = append(l.out.Skipped, SkillSkip{Location: loc, Reason: p.Reason})
	}
	for _, sk := range set.Skills {
		l.add(&found{info: SkillInfo{Name: sk.Name, Description: sk.Description, Location: hostPath(root, sk.Path),
			Content: sk.Instructions, Origin: "fs"}, fsys: fsys, folder: path.Dir(sk.Path), root: root})
	}
}

// callProvider calls a host's skill provider; a panic in it is its error.
func callProvider(ctx context.Context, p func(context.Context) ([]SkillDef, error)) (defs []SkillDef, err error) {
	defer func() {
		if r := recover(); r != nil {
			defs, err = nil, fmt.Errorf("skill provider panicked: %v", r)
		}
	}()
	defs, err = p(ctx)
	if err != nil {
		return nil, fmt.Errorf("skill provider: %w", err)
	}
	return defs, nil
}
