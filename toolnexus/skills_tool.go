package toolnexus

import (
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/toolnexus/wasm/core/tool"
)

// defaultSampleLimit is how many of a skill's files the port's skill tool
// lists when SampleLimit is 0.
const defaultSampleLimit = 10

// portSkillTool is the Go port's "skill" tool over skills: the skill's
// instructions in a <skill_content> block with its base and, unless limit
// is -1 (or a data skill has no resources), a sample of its files.
func portSkillTool(skills []*found, limit int) tool.Tool {
	if limit == 0 {
		limit = defaultSampleLimit
	}
	return tool.Tool{
		Name:        "skill",
		Description: SkillToolDescription,
		InputSchema: tool.ObjectSchema(`{"name": {"type": "string", "description": "The name of the skill to load"}}`, "name"),
		Source:      tool.SourceSkill,
		Execute: func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			name, _ := args["name"].(string)
			names := make([]string, 0, len(skills))
			for _, f := range skills {
				if f.info.Name == name {
					return tool.ToolResult{Output: skillContent(f, limit), Metadata: map[string]any{"name": f.info.Name, "dir": skillDir(f)}}, nil
				}
				names = append(names, f.info.Name)
			}
			avail := "none"
			if len(names) > 0 {
				sort.Strings(names)
				avail = strings.Join(names, ", ")
			}
			return tool.ToolResult{Output: "Skill " + strconv.Quote(name) + " not found. Available skills: " + avail, IsError: true}, nil
		},
	}
}

// skillDir is a skill's folder: the host directory, the folder in its
// fs.FS, or a data skill's base.
func skillDir(f *found) string {
	switch {
	case f.fsys == nil:
		return f.info.Base
	case f.root != "":
		return hostPath(f.root, f.folder)
	}
	return f.folder
}

// skillContent renders the tool's reply for one skill.
func skillContent(f *found, limit int) string {
	base, files, list := skillDir(f), []string(nil), limit != -1
	if f.fsys == nil {
		files = f.info.Resources
		if len(files) == 0 {
			list = false
		}
		if limit > 0 && len(files) > limit {
			files = files[:limit]
		}
	} else {
		if f.root != "" {
			base = fileURL(base)
		}
		if list {
			for _, p := range sampleFolder(f.fsys, f.folder, limit) {
				if f.root != "" {
					p = hostPath(f.root, p)
				}
				files = append(files, p)
			}
		}
	}
	lines := []string{
		"<skill_content name=" + strconv.Quote(f.info.Name) + ">",
		"# Skill: " + f.info.Name,
		"",
		strings.TrimSpace(f.info.Content),
		"",
		"Base directory for this skill: " + base,
		"Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.",
	}
	if list {
		var b strings.Builder
		for i, p := range files {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("<file>" + p + "</file>")
		}
		lines = append(lines, "Note: file list is sampled.", "", "<skill_files>", b.String(), "</skill_files>")
	}
	return strings.Join(append(lines, "</skill_content>"), "\n")
}

// sampleFolder lists up to limit files under folder (their paths in fsys),
// none named SKILL.md: a folder's own files first, then its subfolders,
// the last one first (the port's order); .git, node_modules and linked
// folders skipped.
func sampleFolder(fsys fs.FS, folder string, limit int) []string {
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return
		}
		var subdirs []string
		for _, e := range entries {
			if len(out) >= limit {
				return
			}
			p := path.Join(dir, e.Name())
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				// a linked file is listed; a linked folder is not followed,
				// so that a link loop cannot make the walk endless
				if st, err := fs.Stat(fsys, p); err != nil || st.IsDir() {
					continue
				}
			}
			switch {
			case isDir && e.Name() != ".git" && e.Name() != "node_modules":
				subdirs = append(subdirs, p)
			case !isDir && e.Name() != "SKILL.md":
				out = append(out, p)
			}
		}
		for i := len(subdirs) - 1; i >= 0 && len(out) < limit; i-- {
			walk(subdirs[i])
		}
	}
	walk(folder)
	return out
}
