package agents

import (
	"path/filepath"
	"strings"

	tn "github.com/toolnexus/wasm/toolnexus"
)

// MemoryTool is the "memory" tool over a persona home: add appends an
// entry, replace swaps the first occurrence of a text, remove deletes it,
// in MEMORY.md (target "self", the default) or USER.md (target "user").
// Writes go to disk only; the running session's soul does not change (the
// next FromDir reads them). Replacing or removing a text that is not there
// is an error result, and the file is left as it was.
func MemoryTool(dir string) tn.Tool {
	return tn.Tool{
		Name: "memory",
		Description: "Keep durable notes. action=add appends an entry, replace swaps existing text " +
			"for `with`, remove deletes existing text. target=self (MEMORY.md, default) or user " +
			"(USER.md). Notes are saved to disk and load when your next session starts; they do " +
			"not change your current context.",
		InputSchema: tn.JSONSchema{
			"type": "object",
			"properties": map[string]any{
				"action": map[string]any{"type": "string", "enum": []any{"add", "replace", "remove"}},
				"target": map[string]any{"type": "string", "enum": []any{"self", "user"}},
				"text":   map[string]any{"type": "string", "description": "add: the new entry; replace/remove: the existing text"},
				"with":   map[string]any{"type": "string", "description": "replace: the new text"},
			},
			"required": []any{"action", "text"},
		},
		Source: tn.SourceCustom,
		Execute: func(args map[string]any, _ *tn.ToolContext) (tn.ToolResult, error) {
			return editMemory(dir, args), nil
		},
	}
}

// editMemory applies one memory action; every failure is an error result
// the model reads, never a Go error that would end the run.
func editMemory(dir string, args map[string]any) tn.ToolResult {
	action, _ := args["action"].(string)
	target, _ := args["target"].(string)
	text, _ := args["text"].(string)
	file := "MEMORY.md"
	if target == "user" {
		file = "USER.md"
	}
	path := filepath.Join(dir, file)
	cur, err := readFile(path)
	if err != nil {
		cur = "" // a missing file is an empty memory; a sandbox fails at the write
	}
	var next string
	switch action {
	case "add":
		next = strings.TrimLeft(strings.TrimRight(cur, " \t\r\n")+"\n- "+text+"\n", " \t\r\n")
	case "replace", "remove":
		if text == "" || !strings.Contains(cur, text) {
			return tn.ToolResult{Output: "not found: " + text, IsError: true}
		}
		with, _ := args["with"].(string)
		if action == "remove" {
			with = ""
		}
		next = strings.Replace(cur, text, with, 1)
	default:
		return tn.ToolResult{Output: "unknown action: " + action + " (add, replace or remove)", IsError: true}
	}
	if err := writeFile(path, next); err != nil {
		return tn.ToolResult{Output: err.Error(), IsError: true}
	}
	return tn.ToolResult{Output: "ok (" + action + " → " + file + "); loads next session"}
}
