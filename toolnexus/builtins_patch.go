package toolnexus

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// patchFilesTool is the apply_patch built-in. Its patch text is framed by
// "*** Begin Patch" and "*** End Patch" and holds file sections:
//
//	*** Add File: PATH      then the new file's lines, each after a "+"
//	*** Update File: PATH   then hunks: "@@" [a line to find first], then
//	                        lines of context (" "), removals ("-") and
//	                        additions ("+")
//	*** Delete File: PATH
//
// Every section is worked out in memory first; if one fails (a hunk that
// does not match, a file to add that exists) nothing is written.
func patchFilesTool() Tool {
	return hostTool("apply_patch",
		"Apply a patch that adds, updates and deletes files, all or nothing. Sections: '*** Add File: path' (lines prefixed +), '*** Update File: path' (hunks after @@: ' ' context, '-' remove, '+' add), '*** Delete File: path', inside '*** Begin Patch' … '*** End Patch'.",
		objectSchema(map[string]any{
			"patchText": prop("string", "The whole patch"),
		}, "patchText"),
		func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			sections, err := parseFilePatch(stringArg(args, "patchText"))
			if err != nil {
				return ToolResult{}, err
			}
			type change struct {
				path, content string
				remove        bool
			}
			var changes []change
			staged := map[string]*string{} // path → content after earlier sections; nil: deleted
			current := func(p string) (string, bool) {
				if c, ok := staged[p]; ok {
					if c == nil {
						return "", false
					}
					return *c, true
				}
				b, err := os.ReadFile(p)
				return string(b), err == nil
			}
			var summary []string
			for _, s := range sections {
				switch s.op {
				case "Add":
					if _, exists := current(s.path); exists {
						return ToolResult{}, fmt.Errorf("cannot add %s: it exists", s.path)
					}
					content := strings.Join(s.lines, "\n")
					staged[s.path] = &content
					changes = append(changes, change{path: s.path, content: content})
					summary = append(summary, "A "+s.path)
				case "Update":
					old, exists := current(s.path)
					if !exists {
						return ToolResult{}, fmt.Errorf("cannot update %s: no such file", s.path)
					}
					content, err := applyFileHunks(old, s.lines)
					if err != nil {
						return ToolResult{}, fmt.Errorf("%s: %w", s.path, err)
					}
					staged[s.path] = &content
					changes = append(changes, change{path: s.path, content: content})
					summary = append(summary, "M "+s.path)
				case "Delete":
					if _, exists := current(s.path); !exists {
						return ToolResult{}, fmt.Errorf("cannot delete %s: no such file", s.path)
					}
					staged[s.path] = nil
					changes = append(changes, change{path: s.path, remove: true})
					summary = append(summary, "D "+s.path)
				}
			}
			for _, c := range changes {
				var err error
				if c.remove {
					err = os.Remove(c.path)
				} else {
					err = writeHostFile(c.path, c.content)
				}
				if err != nil {
					return ToolResult{}, err
				}
			}
			return ToolResult{Output: "Applied the patch:\n" + strings.Join(summary, "\n"), Metadata: map[string]any{"files": len(sections)}}, nil
		})
}

type fileSection struct {
	op, path string
	lines    []string // Add: the content; Update: the hunk lines, "@@" ones included
}

// parseFilePatch splits a patch into its file sections.
func parseFilePatch(text string) ([]fileSection, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != "*** Begin Patch" || strings.TrimSpace(lines[len(lines)-1]) != "*** End Patch" {
		return nil, errors.New("the patch must start with '*** Begin Patch' and end with '*** End Patch'")
	}
	var out []fileSection
	for _, line := range lines[1 : len(lines)-1] {
		if rest, ok := strings.CutPrefix(line, "*** "); ok {
			op, path, found := strings.Cut(rest, " File: ")
			if !found || (op != "Add" && op != "Update" && op != "Delete") || strings.TrimSpace(path) == "" {
				return nil, fmt.Errorf("unknown patch line %q", line)
			}
			out = append(out, fileSection{op: op, path: strings.TrimSpace(path)})
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("patch line %q comes before any file section", line)
		}
		s := &out[len(out)-1]
		switch s.op {
		case "Add":
			body, ok := strings.CutPrefix(line, "+")
			if !ok {
				return nil, fmt.Errorf("Add File %s: line %q must start with +", s.path, line)
			}
			s.lines = append(s.lines, body)
		case "Update":
			s.lines = append(s.lines, line)
		default:
			return nil, fmt.Errorf("Delete File %s takes no lines, got %q", s.path, line)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the patch has no file sections")
	}
	return out, nil
}

// applyFileHunks applies an Update section's hunks to content, in order.
func applyFileHunks(content string, body []string) (string, error) {
	lines := strings.Split(content, "\n")
	pos := 0
	var old, repl []string
	flush := func() error {
		if len(old) == 0 && len(repl) == 0 {
			return nil
		}
		at := indexLines(lines, old, pos)
		if at < 0 {
			return fmt.Errorf("hunk does not match the file: %q not found", strings.Join(old, "\n"))
		}
		lines = append(lines[:at], append(append([]string{}, repl...), lines[at+len(old):]...)...)
		pos = at + len(repl)
		old, repl = nil, nil
		return nil
	}
	for _, l := range body {
		if anchor, ok := strings.CutPrefix(l, "@@"); ok {
			if err := flush(); err != nil {
				return "", err
			}
			if a := strings.TrimSpace(anchor); a != "" {
				at := indexLines(lines, []string{a}, pos)
				if at < 0 {
					return "", fmt.Errorf("hunk does not match the file: anchor %q not found", a)
				}
				pos = at + 1
			}
			continue
		}
		switch {
		case strings.HasPrefix(l, "-"):
			old = append(old, l[1:])
		case strings.HasPrefix(l, "+"):
			repl = append(repl, l[1:])
		case strings.HasPrefix(l, " "):
			old, repl = append(old, l[1:]), append(repl, l[1:])
		case l == "":
			old, repl = append(old, ""), append(repl, "")
		default:
			return "", fmt.Errorf("hunk line %q must start with ' ', '-' or '+'", l)
		}
	}
	if err := flush(); err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}

// indexLines is the first index ≥ from where want occurs in lines (compared
// exactly, then with trailing spaces ignored), or -1.
func indexLines(lines, want []string, from int) int {
	for _, same := range []func(a, b string) bool{
		func(a, b string) bool { return a == b },
		func(a, b string) bool { return strings.TrimRight(a, " \t") == strings.TrimRight(b, " \t") },
	} {
	next:
		for i := from; i+len(want) <= len(lines); i++ {
			for j, w := range want {
				if !same(lines[i+j], w) {
					continue next
				}
			}
			return i
		}
	}
	return -1
}
