package toolnexus

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/toolnexus/wasm/core/builtins"
	"github.com/toolnexus/wasm/core/tool"
)

// BuiltinsConfig is the object form of Options.Builtins: Disabled set to
// true, or Enabled set to false, turns every built-in off (Disabled is read
// first); Tools then leaves out each tool mapped to false. A name that is no
// built-in is ignored.
type BuiltinsConfig struct {
	Enabled  *bool           `json:"enabled"`
	Disabled *bool           `json:"disabled"`
	Tools    map[string]bool `json:"tools"`
}

// BuiltinsEnabled reports whether cfg leaves the built-in tools on. cfg is
// nil (on), a bool, a BuiltinsConfig or *BuiltinsConfig, or the decoded
// "builtins" object of a JSON configuration (map[string]any with optional
// boolean keys "enabled" and "disabled"). Any other value leaves them on.
func BuiltinsEnabled(cfg any) bool {
	enabled, disabled := builtinsSwitches(cfg)
	if disabled != nil && *disabled {
		return false
	}
	return enabled == nil || *enabled
}

// builtinsSwitches reads the enabled and disabled switches of cfg (nil when
// unset).
func builtinsSwitches(cfg any) (enabled, disabled *bool) {
	switch c := cfg.(type) {
	case bool:
		return &c, nil
	case BuiltinsConfig:
		return c.Enabled, c.Disabled
	case *BuiltinsConfig:
		if c != nil {
			return c.Enabled, c.Disabled
		}
	case map[string]any:
		if b, ok := c["enabled"].(bool); ok {
			enabled = &b
		}
		if b, ok := c["disabled"].(bool); ok {
			disabled = &b
		}
	}
	return enabled, disabled
}

// builtinsToolSwitches returns the per-tool map of cfg, nil when it has none.
func builtinsToolSwitches(cfg any) map[string]bool {
	switch c := cfg.(type) {
	case BuiltinsConfig:
		return c.Tools
	case *BuiltinsConfig:
		if c != nil {
			return c.Tools
		}
	case map[string]any:
		m, ok := c["tools"].(map[string]any)
		if !ok {
			return nil
		}
		out := make(map[string]bool, len(m))
		for name, v := range m {
			if b, isBool := v.(bool); isBool {
				out[name] = b
			}
		}
		return out
	}
	return nil
}

// SelectBuiltins returns the built-in tools cfg leaves on (see
// BuiltinsEnabled and BuiltinsConfig), in CreateBuiltinTools order; nil when
// the built-ins are off.
func SelectBuiltins(cfg any) []Tool {
	if !BuiltinsEnabled(cfg) {
		return nil
	}
	switches := builtinsToolSwitches(cfg)
	var out []Tool
	for _, t := range CreateBuiltinTools() {
		if on, set := switches[t.Name]; set && !on {
			continue
		}
		out = append(out, t)
	}
	return out
}

// CreateBuiltinTools returns a fresh set of the ten built-in tools, each
// with Source "builtin": bash, read, write, edit, grep, glob, webfetch,
// question, apply_patch and todowrite. The file tools work on the host's
// file system (a relative path is taken from the working directory) and
// run without asking; bash runs sh -c (under js/wasm it reports that the
// sandbox has no shell). webfetch and todowrite are core/builtins' own.
func CreateBuiltinTools() []Tool {
	var webfetch, todowrite Tool
	for _, t := range builtins.Tools(tool.BuiltinsConfig{NoApproval: true}) {
		switch t.Name {
		case "webfetch":
			webfetch = t
		case "todowrite":
			todowrite = t
		}
	}
	return []Tool{
		shellTool(),
		readFileTool(),
		writeFileTool(),
		editFileTool(),
		grepFilesTool(),
		globFilesTool(),
		webfetch,
		askTool(),
		patchFilesTool(),
		todowrite,
	}
}

// hostTool builds a built-in: nil args become an empty map, an error from
// run becomes an error result naming the tool, and a panic in run is caught
// and reported the same way.
func hostTool(name, description string, schema JSONSchema, run func(args map[string]any, tctx *ToolContext) (ToolResult, error)) Tool {
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: schema,
		Source:      SourceBuiltin,
		Execute: func(args map[string]any, tctx *ToolContext) (res ToolResult, err error) {
			defer func() {
				if p := recover(); p != nil {
					res, err = ToolResult{Output: fmt.Sprintf("%s: %v", name, p), IsError: true}, nil
				}
			}()
			if args == nil {
				args = map[string]any{}
			}
			res, err = run(args, tctx)
			if err != nil {
				return ToolResult{Output: name + ": " + err.Error(), IsError: true}, nil
			}
			return res, nil
		},
	}
}

// objectSchema is a JSON object schema over props with the required keys.
func objectSchema(props map[string]any, required ...string) JSONSchema {
	s := JSONSchema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func prop(typ, description string) map[string]any {
	return map[string]any{"type": typ, "description": description}
}

// stringArg is args[key] when it is a string.
func stringArg(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

// numberArg is args[key] as a number: any Go number, or a numeric string.
func numberArg(args map[string]any, key string) (float64, bool) {
	switch v := args[key].(type) {
	case float64:
		return v, !math.IsNaN(v)
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case int32:
		return float64(v), true
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && !math.IsNaN(f) {
			return f, true
		}
	}
	return 0, false
}

// fileExists reports whether p names something on the host's file system.
func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

const shellDescription = "Run a shell command (sh -c) and return what it printed, stdout and stderr together. A non-zero exit status is an error."

func shellSchema() JSONSchema {
	return objectSchema(map[string]any{
		"command":     prop("string", "The command line"),
		"workdir":     prop("string", "Directory to run in (default: the working directory)"),
		"timeout":     prop("number", "Time limit in milliseconds (default 60000)"),
		"description": prop("string", "What the command does, in a few words"),
	}, "command")
}
