package builtins

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io/fs"
	"strings"

	"github.com/toolnexus/wasm/core/vfs"
)

// applyPatch stages every operation, then writes. A failed write restores
// what was written before it.
func applyPatch(files vfs.FileSystem, ops []patchOp) ([]string, error) {
	st := patchStage{files: files, staged: map[string]*stagedFile{}}
	var summary []string
	for _, op := range ops {
		line, err := st.apply(op)
		if err != nil {
			return nil, err
		}
		summary = append(summary, line)
	}
	if err := st.commit(); err != nil {
		return nil, err
	}
	return summary, nil
}

// patchStage holds a patch's changes until every operation has applied.
type patchStage struct {
	files  vfs.FileSystem
	staged map[string]*stagedFile
	order  []string // staged paths, first change first
}

// stagedFile is one path's pending change and what it held before.
type stagedFile struct {
	path    string
	data    []byte // nil: remove
	old     []byte // nil: did not exist
	existed bool
}

// current is the path's content as the patch has left it so far.
func (st *patchStage) current(p string) ([]byte, bool, error) {
	if c, ok := st.staged[p]; ok {
		return c.data, c.data != nil, nil
	}
	b, err := st.files.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fileErr(p, err)
	}
	return b, true, nil
}

// stage records data (nil: removal) as the path's new content.
func (st *patchStage) stage(p string, data []byte) error {
	if _, ok := st.staged[p]; !ok {
		old, existed, err := st.current(p)
		if err != nil {
			return err
		}
		st.staged[p] = &stagedFile{path: p, old: old, existed: existed}
		st.order = append(st.order, p)
	}
	st.staged[p].data = data
	return nil
}

// apply stages one operation and returns its summary line ("A path").
func (st *patchStage) apply(op patchOp) (string, error) {
	p, err := vfs.CleanPath(op.path)
	if err != nil {
		return "", err
	}
	old, exists, err := st.current(p)
	if err != nil {
		return "", err
	}
	switch op.kind {
	case "add":
		if exists {
			return "", fmt.Errorf("cannot add %s: it already exists", p)
		}
		return "A " + p, st.stage(p, []byte(strings.Join(op.lines, "\n")+"\n"))
	case "delete":
		if !exists {
			return "", fmt.Errorf("cannot delete %s: it does not exist", p)
		}
		return "D " + p, st.stage(p, nil)
	}
	if !exists {
		return "", fmt.Errorf("cannot update %s: it does not exist", p)
	}
	next, err := applyHunks(string(old), op.lines)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if op.moveTo == "" {
		return "M " + p, st.stage(p, []byte(next))
	}
	target, err := vfs.CleanPath(op.moveTo)
	if err != nil {
		return "", err
	}
	if err := st.stage(p, nil); err != nil {
		return "", err
	}
	if err := st.stage(target, []byte(next)); err != nil {
		return "", err
	}
	if target == p {
		return "M " + p, nil
	}
	return "M " + p + " -> " + target, nil
}

// commit writes the staged changes in order; on a failure it puts back, as
// far as it can, what the earlier writes replaced.
func (st *patchStage) commit() error {
	var done []*stagedFile
	for _, p := range st.order {
		c := st.staged[p]
		var err error
		switch {
		case c.data != nil:
			err = st.files.WriteFile(p, c.data)
		case c.existed:
			err = st.files.Remove(p)
		}
		if err != nil {
			for _, d := range done {
				if d.existed {
					_ = st.files.WriteFile(d.path, d.old)
				} else {
					_ = st.files.Remove(d.path)
				}
			}
			return fmt.Errorf("write %s: %w (earlier changes were undone)", p, err)
		}
		done = append(done, c)
	}
	return nil
}

// patchHunk is one @@ section of an Update File: its anchor line and the
// lines it expects and leaves.
type patchHunk struct {
	anchor   string
	old, new []string
}

// parseHunks splits the hunk lines of one Update File section.
func parseHunks(body []string) ([]patchHunk, error) {
	var hunks []patchHunk
	for _, l := range body {
		if strings.HasPrefix(l, "@@") {
			hunks = append(hunks, patchHunk{anchor: strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "@"))})
			continue
		}
		if len(hunks) == 0 {
			hunks = append(hunks, patchHunk{})
		}
		h := &hunks[len(hunks)-1]
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
			return nil, fmt.Errorf("hunk line %q must start with ' ', '-' or '+'", l)
		}
	}
	return hunks, nil
}

// applyHunks applies the hunk lines of one Update File section, hunk by hunk
// in file order.
func applyHunks(text string, body []string) (string, error) {
	hunks, err := parseHunks(body)
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	pos := 0
	for n, h := range hunks {
		if lines, pos, err = applyHunk(lines, pos, n+1, h); err != nil {
			return "", err
		}
	}
	out := strings.Join(lines, "\n")
	if strings.HasSuffix(text, "\n") || text == "" {
		out += "\n"
	}
	return out, nil
}

// applyHunk applies h, the patch's hunk number n, to lines at or after pos
// and returns the lines and the position after the change.
func applyHunk(lines []string, pos, n int, h patchHunk) ([]string, int, error) {
	// A blank line that ends a hunk is usually the patch's own spacing.
	for len(h.old) > 0 && len(h.new) > 0 && h.old[len(h.old)-1] == "" && h.new[len(h.new)-1] == "" {
		h.old, h.new = h.old[:len(h.old)-1], h.new[:len(h.new)-1]
	}
	start := pos
	if h.anchor != "" {
		if start = findLines(lines, []string{h.anchor}, pos, true); start < 0 {
			return nil, 0, fmt.Errorf("hunk %d: anchor %q not found", n, h.anchor)
		}
	}
	if len(h.old) == 0 {
		// Pure addition: after the anchor, else at the end.
		at := len(lines)
		if h.anchor != "" {
			at = start + 1
		}
		return append(lines[:at:at], append(h.new, lines[at:]...)...), at + len(h.new), nil
	}
	at := findLines(lines, h.old, start, false)
	if at < 0 {
		at = findLines(lines, h.old, start, true)
	}
	if at < 0 {
		return nil, 0, fmt.Errorf("hunk %d does not apply: its context and removed lines were not found (expected %q)", n, strings.Join(h.old, "\n"))
	}
	rest := append(append([]string{}, h.new...), lines[at+len(h.old):]...)
	return append(lines[:at], rest...), at + len(h.new), nil
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
