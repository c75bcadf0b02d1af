package core

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
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
}

func (p *SkillProblem) Error() string { return fmt.Sprintf("skill %s: %v", p.Path, p.Err) }
func (p *SkillProblem) Unwrap() error { return p.Err }

// SkillSet is what LoadSkills found.
type SkillSet struct {
	fsys   fs.FS
	Skills []Skill // in discovery order (lexical by path)
	// Problems lists the SKILL.md files that were skipped: malformed or
	// missing frontmatter, no name, a name already taken, unreadable.
	Problems []*SkillProblem
}

// skillSampleFiles is how many of a skill's other files the loader lists.
const skillSampleFiles = 20

// LoadSkills discovers every **/SKILL.md in fsys (skipping .git and
// node_modules), in lexical path order. A skill needs a name in its YAML
// frontmatter; the first skill of a name wins. A file that cannot be used is
// skipped and reported in Problems; only a failure to walk fsys itself is an
// error.
func LoadSkills(fsys fs.FS) (*SkillSet, error) {
	set := &SkillSet{fsys: fsys}
	if fsys == nil {
		return set, nil
	}
	var paths []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			set.Problems = append(set.Problems, &SkillProblem{Path: p, Err: err})
			return nil
		}
		if d.IsDir() {
			if p != "." && (d.Name() == ".git" || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() == "SKILL.md" {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("core: load skills: %w", err)
	}
	seen := map[string]string{}
	for _, p := range paths {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			set.Problems = append(set.Problems, &SkillProblem{Path: p, Err: err})
			continue
		}
		sk, err := parseSkill(p, b)
		if err != nil {
			set.Problems = append(set.Problems, &SkillProblem{Path: p, Err: err})
			continue
		}
		if first, dup := seen[sk.Name]; dup {
			set.Problems = append(set.Problems, &SkillProblem{Path: p, Err: fmt.Errorf("the name %q is already used by %s", sk.Name, first)})
			continue
		}
		seen[sk.Name] = p
		set.Skills = append(set.Skills, sk)
	}
	return set, nil
}

// parseSkill splits a SKILL.md into frontmatter and body and reads the
// frontmatter with the YAML parser of this build (see parseYAMLMap).
func parseSkill(p string, b []byte) (Skill, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return Skill{}, errors.New("no YAML frontmatter (the file must start with a --- line)")
	}
	rest := text[4:]
	var front, body string
	if strings.HasPrefix(rest, "---\n") || rest == "---" {
		body = strings.TrimPrefix(strings.TrimPrefix(rest, "---"), "\n")
	} else {
		end := strings.Index(rest, "\n---\n")
		if end < 0 {
			if !strings.HasSuffix(rest, "\n---") {
				return Skill{}, errors.New("the frontmatter has no closing --- line")
			}
			end = len(rest) - 4
			front, body = rest[:end], ""
		} else {
			front, body = rest[:end], rest[end+5:]
		}
	}
	if err := checkYAMLNesting(front, MaxJSONDepth); err != nil {
		return Skill{}, fmt.Errorf("malformed frontmatter: %w", err)
	}
	m, err := parseYAMLMap([]byte(front))
	if err != nil {
		return Skill{}, fmt.Errorf("malformed frontmatter: %w", err)
	}
	name, _ := yamlScalar(m["name"])
	if name == "" {
		return Skill{}, errors.New("the frontmatter has no name")
	}
	desc, _ := yamlScalar(m["description"])
	return Skill{Name: name, Description: desc, Path: p, Instructions: strings.TrimSpace(body)}, nil
}

// checkYAMLNesting refuses frontmatter that could nest deeper than max
// levels, before a YAML parser (which recurses per level) reads it: on any
// line, its indentation plus the flow collections ([ and {) open so far
// must stay within max. One iterative pass that errs on the safe side: an
// opening bracket always counts, even inside quotes; a closing one counts
// only outside quotes, whose state ends with the line.
func checkYAMLNesting(text string, max int) error {
	flow, indent, lineStart := 0, 0, true
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			lineStart, indent, quote = true, 0, 0
			continue
		}
		if lineStart && (c == ' ' || c == '\t' || c == '-') {
			indent++ // a "- " list entry nests as much as an indent
		} else {
			lineStart = false
		}
		switch {
		case c == '[' || c == '{':
			flow++
		case quote != 0:
			if c == '\\' && quote == '"' && i+1 < len(text) && !strings.ContainsRune("[{\n", rune(text[i+1])) {
				i++ // an escaped character, never an opening bracket
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case (c == ']' || c == '}') && flow > 0:
			flow--
		}
		if flow+indent > max {
			return fmt.Errorf("it nests more than %d levels deep", max)
		}
	}
	return nil
}

// yamlScalar renders a scalar YAML value as trimmed text; ok is false for
// lists, maps and null.
func yamlScalar(v any) (string, bool) {
	switch v.(type) {
	case nil, []any, map[string]any, map[any]any:
		return "", false
	}
	return strings.TrimSpace(stringify(v)), true
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

// Tool is the one "skill" tool: given a skill's name it returns the skill's
// instructions and a sample of the other files in its folder.
func (s *SkillSet) Tool() Tool {
	return Tool{
		Name:        "skill",
		Description: "Load a skill by name: its instructions and a list of the files beside it. Use it when the task matches a skill listed in the system prompt.",
		InputSchema: objectSchema(`{
			"name": {"type": "string", "description": "The skill's name, as listed in the system prompt"}
		}`, "name"),
		Source: SourceSkill,
		Execute: func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			name := argStr(args, "name")
			sk, ok := s.Get(name)
			if !ok {
				var names []string
				for _, k := range s.Skills {
					names = append(names, k.Name)
				}
				avail := "none"
				if len(names) > 0 {
					avail = strings.Join(names, ", ")
				}
				return ToolResult{Output: fmt.Sprintf("no skill is named %q (skills: %s)", name, avail), IsError: true}, nil
			}
			dir := path.Dir(sk.Path)
			files, total := s.sample(dir)
			var b strings.Builder
			fmt.Fprintf(&b, "<skill name=%q folder=%q>\n%s\n", sk.Name, dir, sk.Instructions)
			if len(files) > 0 {
				fmt.Fprintf(&b, "\nFiles in the skill's folder (%d of %d; paths relative to it):\n", len(files), total)
				for _, f := range files {
					b.WriteString("- " + f + "\n")
				}
			}
			b.WriteString("</skill>")
			return ToolResult{Output: b.String(), Metadata: map[string]any{"name": sk.Name, "folder": dir}}, nil
		},
	}
}

// sample lists up to skillSampleFiles files under dir other than its
// SKILL.md, sorted, and how many there are in all.
func (s *SkillSet) sample(dir string) ([]string, int) {
	var out []string
	total := 0
	_ = fs.WalkDir(s.fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.IsDir() && p != dir && (d.Name() == ".git" || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if dir == "." {
			rel = p
		}
		if rel == "SKILL.md" {
			return nil
		}
		total++
		if len(out) < skillSampleFiles {
			out = append(out, rel)
		}
		return nil
	})
	return out, total
}

// Skills returns what the toolkit's skills source found, or nil.
func (tk *Toolkit) Skills() *SkillSet {
	if tk == nil {
		return nil
	}
	return tk.skills
}
