package core

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// SourceBuiltin marks the tools BuiltinTools makes.
const SourceBuiltin ToolSource = "builtin"

// BuiltinNames lists the built-in tools in their assembly order. There is no
// "bash": a sandbox has no shell. A host that has one registers its own tool
// of that name in Options.ExtraTools.
var BuiltinNames = []string{"question", "webfetch", "todowrite", "read", "write", "edit", "glob", "grep", "apply_patch"}

// BuiltinsConfig is the full form of Options.Builtins.
type BuiltinsConfig struct {
	// Tools turns single tools on or off by name: a name mapped to false is
	// left out; absent or true stays in. An unknown name is an error, so a
	// typo does not silently leave a tool on.
	Tools map[string]bool
	// Files is the virtual file system of read, write, edit, glob, grep and
	// apply_patch. nil: a fresh in-memory one (NewMemFS) per toolkit.
	Files FileSystem
	// Transport carries webfetch's requests. nil: DefaultTransport().
	Transport Transport
	// MaxFetchBytes caps the body webfetch reads (default 512 KiB); more is
	// cut off with a note.
	MaxFetchBytes int
	// Match compiles grep patterns. nil: Go's regexp where the build links it
	// (natively, and under js/wasm with the toolnexus_full tag), else literal
	// text only. The JS bridge supplies one over JavaScript's RegExp.
	Match Matcher
	// NoApproval lets write, edit and apply_patch run without asking. By
	// default each of their calls suspends for an approval first.
	NoApproval bool
}

// Matcher compiles a grep pattern into a line predicate.
type Matcher func(pattern string) (func(line string) bool, error)

// builtinsConfigOf reads Options.Builtins. The contract:
//
//	nil, true          all built-ins, default settings (the zero Options)
//	false              none
//	map[string]bool    all built-ins but those mapped to false
//	BuiltinsConfig     as configured (also *BuiltinsConfig; nil ⇒ defaults)
//
// ok is false when the built-ins are off; any other type is an error.
func builtinsConfigOf(v any) (cfg BuiltinsConfig, ok bool, err error) {
	switch b := v.(type) {
	case nil:
		return cfg, true, nil
	case bool:
		return cfg, b, nil
	case map[string]bool:
		return BuiltinsConfig{Tools: b}, true, nil
	case BuiltinsConfig:
		return b, true, nil
	case *BuiltinsConfig:
		if b == nil {
			return cfg, true, nil
		}
		return *b, true, nil
	}
	return cfg, false, fmt.Errorf("Builtins must be a bool, a map[string]bool or a BuiltinsConfig, got %T", v)
}

// selectBuiltins returns the built-in tools Options.Builtins asks for.
func selectBuiltins(v any) ([]Tool, error) {
	cfg, on, err := builtinsConfigOf(v)
	if err != nil || !on {
		return nil, err
	}
	known := map[string]bool{}
	for _, n := range BuiltinNames {
		known[n] = true
	}
	var unknown []string
	for n := range cfg.Tools {
		if !known[n] {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("Builtins: unknown built-in %s (known: %s)", strings.Join(unknown, ", "), strings.Join(BuiltinNames, ", "))
	}
	var out []Tool
	for _, t := range BuiltinTools(cfg) {
		if on, set := cfg.Tools[t.Name]; set && !on {
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// BuiltinTools builds every built-in over cfg, in BuiltinNames order
// (cfg.Tools is not applied here). The tools of one call share one file
// system and one todo list.
func BuiltinTools(cfg BuiltinsConfig) []Tool {
	if cfg.Files == nil {
		cfg.Files, _ = NewMemFS(nil) // an empty map cannot fail
	}
	if cfg.MaxFetchBytes <= 0 {
		cfg.MaxFetchBytes = defaultFetchMaxBytes
	}
	if cfg.Match == nil {
		cfg.Match = defaultMatcher
	}
	tools := []Tool{
		questionTool(),
		webfetchTool(cfg),
		todowriteTool(),
		readTool(cfg.Files),
		writeTool(cfg.Files),
		editTool(cfg.Files),
		globTool(cfg.Files),
		grepTool(cfg.Files, cfg.Match),
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
func builtin(name, description string, schema JSONSchema, run func(args map[string]any, tctx *ToolContext) (ToolResult, error)) Tool {
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: schema,
		Source:      SourceBuiltin,
		Execute: func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
			if args == nil {
				args = map[string]any{}
			}
			res, err := run(args, tctx)
			if err != nil {
				return ToolResult{Output: name + ": " + err.Error(), IsError: true}, nil
			}
			return res, nil
		},
	}
}

// objectSchema is {"type":"object", properties, required,
// additionalProperties:false}. The properties are JSON text: a constant
// costs the wasm build far less than the code of a nested map literal.
func objectSchema(properties string, required ...string) JSONSchema {
	props, err := jsonx.DecodeObject([]byte(properties))
	if err != nil {
		panic("core: a built-in's schema: " + err.Error()) // a constant: the tests catch it
	}
	req := make([]any, len(required))
	for i, r := range required {
		req[i] = r
	}
	return JSONSchema{"type": "object", "properties": props, "required": req, "additionalProperties": false}
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
