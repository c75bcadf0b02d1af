package builtins

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/vfs"
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

func applyPatchTool(files vfs.FileSystem) tool.Tool {
	return builtin("apply_patch",
		"Apply a patch (*** Begin Patch / *** Add File: / *** Update File: / *** Delete File: / *** End Patch, hunks of ' ', '-', '+' lines after @@). All or nothing: if one hunk does not apply, no file changes.",
		tool.ObjectSchema(`{
			"patchText": {"type": "string", "description": "The whole patch, from *** Begin Patch to *** End Patch"}
		}`, "patchText"),
		func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			text, err := requireStr(args, "patchText")
			if err != nil {
				return tool.ToolResult{}, err
			}
			ops, err := parsePatch(text)
			if err != nil {
				return tool.ToolResult{}, fmt.Errorf("parse: %w", err)
			}
			summary, err := applyPatch(files, ops)
			if err != nil {
				return tool.ToolResult{}, err
			}
			return tool.ToolResult{Output: "Applied the patch:\n" + strings.Join(summary, "\n"), Metadata: map[string]any{"files": len(summary)}}, nil
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
