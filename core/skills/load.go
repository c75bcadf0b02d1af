package skills

import (
	"bytes"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io/fs"
	"strings"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

func init() { tool.RegisterSkills(Load) }

// Load discovers every **/SKILL.md in fsys (skipping .git and
// node_modules), in lexical path order. A skill needs a name in its YAML
// frontmatter; the first skill of a name wins. A file that cannot be used is
// skipped and reported in Problems; only a failure to walk fsys itself is an
// error.
func Load(fsys fs.FS) (*tool.SkillSet, error) {
	var set tool.SkillSet
	if fsys == nil {
		return tool.NewSkillSet(nil, nil, nil), nil
	}
	var paths []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			set.Problems = append(set.Problems, &tool.SkillProblem{Path: p, Err: err, Reason: tool.SkipUnreadable})
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
		return nil, fmt.Errorf("skills: load: %w", err)
	}
	seen := map[string]string{}
	for _, p := range paths {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			set.Problems = append(set.Problems, &tool.SkillProblem{Path: p, Err: err, Reason: tool.SkipUnreadable})
			continue
		}
		sk, err := parseSkill(p, b)
		if err != nil {
			reason := tool.SkipMissingName // no frontmatter, no closing line, no name
			if errors.Is(err, errMalformed) {
				reason = tool.SkipMalformed
			}
			set.Problems = append(set.Problems, &tool.SkillProblem{Path: p, Err: err, Reason: reason})
			continue
		}
		if first, dup := seen[sk.Name]; dup {
			set.Problems = append(set.Problems, &tool.SkillProblem{Path: p, Err: fmt.Errorf("the name %q is already used by %s", sk.Name, first), Reason: tool.SkipDuplicateName})
			continue
		}
		seen[sk.Name] = p
		set.Skills = append(set.Skills, sk)
	}
	return tool.NewSkillSet(set.Skills, set.Problems, func(s *tool.SkillSet) tool.Tool { return skillTool(s, fsys) }), nil
}

// The reasons a SKILL.md is skipped (SkillProblem.Reason classifies them
// as the Go port's SkillSkipReason values).
var (
	errNoFrontmatter = errors.New("no YAML frontmatter (the file must start with a --- line)")
	errNoClosingLine = errors.New("the frontmatter has no closing --- line")
	errNoName        = errors.New("the frontmatter has no name")
	errMalformed     = errors.New("malformed frontmatter")
)

// parseSkill splits a SKILL.md into frontmatter and body and reads the
// frontmatter with the YAML parser of this build (see parseYAMLMap).
func parseSkill(p string, b []byte) (tool.Skill, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return tool.Skill{}, errNoFrontmatter
	}
	rest := text[4:]
	var front, body string
	if strings.HasPrefix(rest, "---\n") || rest == "---" {
		body = strings.TrimPrefix(strings.TrimPrefix(rest, "---"), "\n")
	} else {
		end := strings.Index(rest, "\n---\n")
		if end < 0 {
			if !strings.HasSuffix(rest, "\n---") {
				return tool.Skill{}, errNoClosingLine
			}
			end = len(rest) - 4
			front, body = rest[:end], ""
		} else {
			front, body = rest[:end], rest[end+5:]
		}
	}
	if err := checkYAMLNesting(front, jsonx.MaxDepth); err != nil {
		return tool.Skill{}, fmt.Errorf("%w: %w", errMalformed, err)
	}
	m, err := parseYAMLMap([]byte(front))
	if err != nil {
		return tool.Skill{}, fmt.Errorf("%w: %w", errMalformed, err)
	}
	name, _ := yamlScalar(m["name"])
	if name == "" {
		return tool.Skill{}, errNoName
	}
	desc, _ := yamlScalar(m["description"])
	return tool.Skill{Name: name, Description: desc, Path: p, Instructions: strings.TrimSpace(body)}, nil
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
	return strings.TrimSpace(jsonx.Text(v)), true
}
