package core

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// apply_patch takes the Begin/End Patch format the Go port uses:
//
//	*** Begin Patch
//	*** Add File: notes/new.md
//	+first line
//	*** Update File: src/app.txt
//	*** Move to: src/main.txt        (optional)
//	@@ an optional anchor line
//	 context
//	-removed
//	+added
//	*** Delete File: old.txt
//	*** End Patch
//
// Every hunk must apply before anything is written: one that does not match
// is an error and the file system is left as it was.

type patchOp struct {
	kind   string // "add", "update", "delete"
	path   string
	moveTo string
	lines  []string // add: the content lines; update: the hunk lines
}

func applyPatchTool(files FileSystem) Tool {
	return builtin("apply_patch",
		"Apply a patch (*** Begin Patch / *** Add File: / *** Update File: / *** Delete File: / *** End Patch, hunks of ' ', '-', '+' lines after @@). All or nothing: if one hunk does not apply, no file changes.",
		objectSchema(`{
			"patchText": {"type": "string", "description": "The whole patch, from *** Begin Patch to *** End Patch"}
		}`, "patchText"),
		func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			text, err := requireStr(args, "patchText")
			if err != nil {
				return ToolResult{}, err
			}
			ops, err := parsePatch(text)
			if err != nil {
				return ToolResult{}, fmt.Errorf("parse: %w", err)
			}
			summary, err := applyPatch(files, ops)
			if err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Output: "Applied the patch:\n" + strings.Join(summary, "\n"), Metadata: map[string]any{"files": len(summary)}}, nil
		})
}

func parsePatch(text string) ([]patchOp, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) || strings.TrimSpace(lines[i]) != "*** Begin Patch" {
		return nil, errors.New("the patch must start with *** Begin Patch")
	}
	i++
	var ops []patchOp
	for ; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "*** End Patch":
			if len(ops) == 0 {
				return nil, errors.New("the patch changes no file")
			}
			return ops, nil
		case strings.HasPrefix(line, "*** Add File: "):
			ops = append(ops, patchOp{kind: "add", path: strings.TrimSpace(line[len("*** Add File: "):])})
		case strings.HasPrefix(line, "*** Update File: "):
			ops = append(ops, patchOp{kind: "update", path: strings.TrimSpace(line[len("*** Update File: "):])})
		case strings.HasPrefix(line, "*** Delete File: "):
			ops = append(ops, patchOp{kind: "delete", path: strings.TrimSpace(line[len("*** Delete File: "):])})
		case strings.HasPrefix(line, "*** Move to: "):
			if len(ops) == 0 || ops[len(ops)-1].kind != "update" {
				return nil, fmt.Errorf("line %d: *** Move to: must follow *** Update File:", i+1)
			}
			ops[len(ops)-1].moveTo = strings.TrimSpace(line[len("*** Move to: "):])
		case trimmed == "*** End of File":
			// An end-of-file marker carries no change here.
		default:
			if len(ops) == 0 {
				if trimmed == "" {
					continue
				}
				return nil, fmt.Errorf("line %d: expected a *** Add/Update/Delete File: header, got %q", i+1, line)
			}
			op := &ops[len(ops)-1]
			switch op.kind {
			case "add":
				if !strings.HasPrefix(line, "+") {
					if trimmed == "" {
						continue
					}
					return nil, fmt.Errorf("line %d: lines of an added file start with +", i+1)
				}
				op.lines = append(op.lines, line[1:])
			case "delete":
				if trimmed != "" {
					return nil, fmt.Errorf("line %d: a deleted file takes no lines", i+1)
				}
			default:
				op.lines = append(op.lines, line)
			}
		}
	}
	return nil, errors.New("the patch must end with *** End Patch")
}

// applyPatch stages every operation, then writes. A failed write restores
// what was written before it.
func applyPatch(files FileSystem, ops []patchOp) ([]string, error) {
	type change struct {
		path    string
		data    []byte // nil: remove
		old     []byte // nil: did not exist
		existed bool
	}
	staged := map[string]*change{}
	var order []string
	current := func(p string) ([]byte, bool, error) {
		if c, ok := staged[p]; ok {
			return c.data, c.data != nil, nil
		}
		b, err := files.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, fileErr(p, err)
		}
		return b, true, nil
	}
	stage := func(p string, data []byte) error {
		if _, ok := staged[p]; !ok {
			old, existed, err := current(p)
			if err != nil {
				return err
			}
			staged[p] = &change{path: p, old: old, existed: existed}
			order = append(order, p)
		}
		staged[p].data = data
		return nil
	}
	var summary []string
	for _, op := range ops {
		p, err := CleanPath(op.path)
		if err != nil {
			return nil, err
		}
		_, exists, err := current(p)
		if err != nil {
			return nil, err
		}
		switch op.kind {
		case "add":
			if exists {
				return nil, fmt.Errorf("cannot add %s: it already exists", p)
			}
			if err := stage(p, []byte(strings.Join(op.lines, "\n")+"\n")); err != nil {
				return nil, err
			}
			summary = append(summary, "A "+p)
		case "delete":
			if !exists {
				return nil, fmt.Errorf("cannot delete %s: it does not exist", p)
			}
			if err := stage(p, nil); err != nil {
				return nil, err
			}
			summary = append(summary, "D "+p)
		case "update":
			old, _, _ := current(p)
			if !exists {
				return nil, fmt.Errorf("cannot update %s: it does not exist", p)
			}
			next, err := applyHunks(string(old), op.lines)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			target := p
			if op.moveTo != "" {
				if target, err = CleanPath(op.moveTo); err != nil {
					return nil, err
				}
				if err := stage(p, nil); err != nil {
					return nil, err
				}
			}
			if err := stage(target, []byte(next)); err != nil {
				return nil, err
			}
			if target != p {
				summary = append(summary, "M "+p+" -> "+target)
			} else {
				summary = append(summary, "M "+p)
			}
		}
	}
	var done []*change
	for _, p := range order {
		c := staged[p]
		var err error
		switch {
		case c.data != nil:
			err = files.WriteFile(p, c.data)
		case c.existed:
			err = files.Remove(p)
		}
		if err != nil {
			for _, d := range done { // best effort: put back what was there
				if d.existed {
					_ = files.WriteFile(d.path, d.old)
				} else {
					_ = files.Remove(d.path)
				}
			}
			return nil, fmt.Errorf("write %s: %w (earlier changes were undone)", p, err)
		}
		done = append(done, c)
	}
	return summary, nil
}

// applyHunks applies the hunk lines of one Update File section, hunk by hunk
// in file order.
func applyHunks(text string, body []string) (string, error) {
	type hunk struct {
		anchor   string
		old, new []string
	}
	var hunks []hunk
	cur := -1
	for _, l := range body {
		if strings.HasPrefix(l, "@@") {
			hunks = append(hunks, hunk{anchor: strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "@"))})
			cur = len(hunks) - 1
			continue
		}
		if cur < 0 {
			hunks = append(hunks, hunk{})
			cur = 0
		}
		h := &hunks[cur]
		switch {
		case strings.HasPrefix(l, "-"):
			h.old = append(h.old, l[1:])
		case strings.HasPrefix(l, "+"):
			h.new = append(h.new, l[1:])
		case strings.HasPrefix(l, " "):
			h.old = append(h.old, l[1:])
			h.new = append(h.new, l[1:])
		case l == "":
			h.old = append(h.old, "")
			h.new = append(h.new, "")
		default:
			return "", fmt.Errorf("hunk line %q must start with ' ', '-' or '+'", l)
		}
	}
	trailingNL := strings.HasSuffix(text, "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	pos := 0
	for n, h := range hunks {
		// A blank line that ends a hunk is usually the patch's own spacing.
		for len(h.old) > 0 && len(h.new) > 0 && h.old[len(h.old)-1] == "" && h.new[len(h.new)-1] == "" {
			h.old, h.new = h.old[:len(h.old)-1], h.new[:len(h.new)-1]
		}
		start := pos
		if h.anchor != "" {
			a := findLines(lines, []string{h.anchor}, pos, true)
			if a < 0 {
				return "", fmt.Errorf("hunk %d: anchor %q not found", n+1, h.anchor)
			}
			start = a
		}
		if len(h.old) == 0 {
			// Pure addition: after the anchor, else at the end.
			at := len(lines)
			if h.anchor != "" {
				at = start + 1
			}
			lines = append(lines[:at:at], append(h.new, lines[at:]...)...)
			pos = at + len(h.new)
			continue
		}
		at := findLines(lines, h.old, start, false)
		if at < 0 {
			at = findLines(lines, h.old, start, true)
		}
		if at < 0 {
			return "", fmt.Errorf("hunk %d does not apply: its context and removed lines were not found (expected %q)", n+1, strings.Join(h.old, "\n"))
		}
		rest := append(append([]string{}, h.new...), lines[at+len(h.old):]...)
		lines = append(lines[:at], rest...)
		pos = at + len(h.new)
	}
	out := strings.Join(lines, "\n")
	if trailingNL || text == "" {
		out += "\n"
	}
	return out, nil
}

// findLines returns the index of the first run of want in lines at or after
// from, comparing exactly or, with loose, ignoring surrounding spaces; -1 if
// there is none.
func findLines(lines, want []string, from int, loose bool) int {
	for i := from; i+len(want) <= len(lines); i++ {
		ok := true
		for j, w := range want {
			a, b := lines[i+j], w
			if loose {
				a, b = strings.TrimSpace(a), strings.TrimSpace(b)
			}
			if a != b {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}
