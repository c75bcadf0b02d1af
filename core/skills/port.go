package skills

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/toolnexus/wasm/core/tool"
)

// The Go port's skill sources (core.LoadSkillsWith, ListSkills, the
// toolkit's Options.Skills/SkillsDir/SkillProvider): directories and data
// skills merged, filtered by name, behind a "skill" tool in the port's
// wording (port_tool.go).

func init() { tool.RegisterSkillSources(loadSources) }

// found is one skill and where its files are: fsys and folder for a
// SKILL.md's skill (root is the directory fsys stands for, "" for an
// fs.FS of the host's), nothing for a data skill.
type found struct {
	info   tool.SkillInfo
	fsys   fs.FS
	folder string
	root   string
}

// loadSources reads opts' sources in order (FS, Dirs, Skills, then the
// provider's), keeps the first skill of a name, and applies the filter.
func loadSources(ctx context.Context, opts tool.LoadSkillsOptions, provider func(context.Context) ([]tool.SkillDef, error)) *tool.LoadedSkills {
	out := &tool.LoadedSkills{Skills: map[string]tool.SkillInfo{}}
	if provider != nil {
		more, err := callProvider(ctx, provider)
		if err != nil {
			out.Problems = append(out.Problems, &tool.SkillProblem{Path: "SkillProvider", Err: err})
		}
		opts.Skills = append(append([]tool.SkillDef(nil), opts.Skills...), more...)
	}
	var all []found
	byName := map[string]bool{}
	add := func(f found) {
		if byName[f.info.Name] {
			out.Skipped = append(out.Skipped, tool.SkillSkip{Location: f.info.Location, Reason: tool.SkipDuplicateName})
			return
		}
		byName[f.info.Name] = true
		all = append(all, f)
	}
	if opts.FS != nil {
		fromFS(out, opts.FS, "", add)
	}
	for _, d := range hostDirs(opts.Dirs) {
		fromFS(out, d.fsys, d.root, add)
	}
	for _, d := range opts.Skills {
		base := d.Base
		if base == "" && d.Name != "" {
			base = "skill://" + d.Name + "/"
		}
		if d.Name == "" {
			loc := base
			if loc == "" {
				loc = "skill://"
			}
			out.Skipped = append(out.Skipped, tool.SkillSkip{Location: loc, Reason: tool.SkipMissingName})
			continue
		}
		add(found{info: tool.SkillInfo{Name: d.Name, Description: d.Description, Location: base, Content: d.Content,
			Origin: "logical", Resources: append([]string{}, d.Resources...), Base: base}})
	}
	kept := map[string]found{}
	for _, f := range all {
		out.All = append(out.All, f.info)
		if tool.AllowedByFilter(f.info.Name, opts.Filter) {
			out.Skills[f.info.Name] = f.info
			kept[f.info.Name] = f
		}
	}
	out.Tool = portSkillTool(kept, opts.SampleLimit)
	out.Prompt = tool.PortSkillsPrompt(out.Skills)
	var set []tool.Skill
	for _, sk := range out.All {
		if _, ok := out.Skills[sk.Name]; ok {
			set = append(set, tool.Skill{Name: sk.Name, Description: sk.Description, Path: sk.Location, Instructions: sk.Content})
		}
	}
	t := out.Tool
	out.Set = tool.NewSkillSet(set, out.Problems, func(*tool.SkillSet) tool.Tool { return t })
	return out
}

// callProvider calls a host's skill provider; a panic in it is its error.
func callProvider(ctx context.Context, p func(context.Context) ([]tool.SkillDef, error)) (defs []tool.SkillDef, err error) {
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

// fromFS adds the skills of one file system; root, when set, is the host
// directory it stands for, which makes Location absolute. A file system
// that cannot be walked (a missing directory) adds nothing.
func fromFS(out *tool.LoadedSkills, fsys fs.FS, root string, add func(found)) {
	set, err := Load(fsys)
	if err != nil {
		return
	}
	loc := func(p string) string {
		if root == "" {
			return p
		}
		return hostPath(root, p)
	}
	for _, p := range set.Problems {
		out.Problems = append(out.Problems, &tool.SkillProblem{Path: loc(p.Path), Err: p.Err})
		out.Skipped = append(out.Skipped, tool.SkillSkip{Location: loc(p.Path), Reason: skipReason(p.Err)})
	}
	for _, sk := range set.Skills {
		add(found{info: tool.SkillInfo{Name: sk.Name, Description: sk.Description, Location: loc(sk.Path),
			Content: sk.Instructions, Origin: "fs"}, fsys: fsys, folder: path.Dir(sk.Path), root: root})
	}
}

// skipReason maps Load's problem to the port's reason.
func skipReason(err error) tool.SkillSkipReason {
	switch {
	case errors.Is(err, errMalformed):
		return tool.SkipMalformed
	case errors.Is(err, errNameTaken):
		return tool.SkipDuplicateName
	case errors.Is(err, errNoName), errors.Is(err, errNoFrontmatter), errors.Is(err, errNoClosingLine):
		return tool.SkipMissingName
	}
	return tool.SkipUnreadable
}
