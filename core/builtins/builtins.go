package builtins

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/vfs"
)

func init() { tool.RegisterBuiltins(tool.BuiltinsProvider{Tools: Tools, Select: Select}) }

// Select returns the built-ins cfg.Tools leaves on: a name mapped to false
// is left out, absent or true stays in, and a name that is no built-in is
// ignored, as in the Go port (whose README turns off its "bash" that way;
// core refuses "bash": true before this, see core's selectBuiltins).
func Select(cfg tool.BuiltinsConfig) ([]tool.Tool, error) {
	var out []tool.Tool
	for _, t := range Tools(cfg) {
		if on, set := cfg.Tools[t.Name]; set && !on {
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// Tools builds every built-in over cfg, in tool.BuiltinNames order
// (cfg.Tools is not applied here). The tools of one call share one file
// system and one todo list.
func Tools(cfg tool.BuiltinsConfig) []tool.Tool {
	if cfg.Files == nil {
		cfg.Files, _ = vfs.NewMemFS(nil) // an empty map cannot fail
	}
	if cfg.MaxFetchBytes <= 0 {
		cfg.MaxFetchBytes = defaultFetchMaxBytes
	}
	dialect := "the host's dialect"
	if cfg.Match == nil {
		cfg.Match, dialect = defaultMatcher, grepDialect
	}
	tools := []tool.Tool{
		questionTool(),
		webfetchTool(cfg),
		todowriteTool(),
		readTool(cfg.Files),
		writeTool(cfg.Files),
		editTool(cfg.Files),
		globTool(cfg.Files),
		grepTool(cfg.Files, cfg.Match, dialect),
		applyPatchTool(cfg.Files),
	}
	if !cfg.NoApproval {
		for i := range tools {
			switch tools[i].Name {
			case "write", "edit", "apply_patch":
				tools[i].NeedsApproval = true
			}
		}
	}
	return tools
}

// builtin wraps a built-in's body: a nil args map becomes empty, and the
// result of a failure carries the tool's name.
func builtin(name, description string, schema tool.JSONSchema, run func(args map[string]any, tctx *tool.ToolContext) (tool.ToolResult, error)) tool.Tool {
	return tool.Tool{
		Name:        name,
		Description: description,
		InputSchema: schema,
		Source:      tool.SourceBuiltin,
		Execute: func(args map[string]any, tctx *tool.ToolContext) (tool.ToolResult, error) {
			if args == nil {
				args = map[string]any{}
			}
			res, err := run(args, tctx)
			if err != nil {
				return tool.ToolResult{Output: name + ": " + err.Error(), IsError: true}, nil
			}
			return res, nil
		},
	}
}

func argStr(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

// argInt reads a number argument; def when absent or not a number.
func argInt(args map[string]any, key string, def int) int {
	if f, ok := args[key].(float64); ok {
		return int(f)
	}
	if i, ok := args[key].(int); ok {
		return i
	}
	return def
}

// requireStr returns the non-empty string argument key or an error.
func requireStr(args map[string]any, key string) (string, error) {
	s, ok := args[key].(string)
	if !ok || s == "" {
		return "", fmt.Errorf("%s is required (a non-empty string)", key)
	}
	return s, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
