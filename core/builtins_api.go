package core

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/vfs"
)

// The built-in tools live in package core/builtins, which registers itself
// with core/tool when a program imports it. These names keep core's face:
// the configuration types are core/tool's, the file system core/vfs's.

// SourceBuiltin marks the built-in tools.
const SourceBuiltin = tool.SourceBuiltin

// BuiltinNames lists the built-in tools in their assembly order.
var BuiltinNames = tool.BuiltinNames

// BuiltinsConfig is the full form of Options.Builtins.
type BuiltinsConfig = tool.BuiltinsConfig

// Matcher compiles a grep pattern into a line predicate.
type Matcher = tool.Matcher

// FileSystem is the virtual file system of the file built-ins.
type FileSystem = vfs.FileSystem

// MemFS is an in-memory FileSystem that is also an io/fs.FS.
type MemFS = vfs.MemFS

// NewMemFS returns a MemFS holding files (path → content).
func NewMemFS(files map[string]string) (*MemFS, error) { return vfs.NewMemFS(files) }

// CleanPath normalizes a FileSystem path ("/a/./b" → "a/b") and refuses
// one that climbs out of the root.
func CleanPath(name string) (string, error) { return vfs.CleanPath(name) }

// ErrBuiltinsNotLinked is CreateToolkit's error when Options ask for
// built-ins in a program that does not import core/builtins.
var ErrBuiltinsNotLinked = errors.New(`core: built-ins not linked: import _ "github.com/toolnexus/wasm/core/builtins"`)

// BuiltinsLinked reports whether the program links the built-in tools
// (imports core/builtins).
func BuiltinsLinked() bool { return tool.Builtins() != nil }

// BuiltinTools builds every built-in over cfg, in BuiltinNames order
// (cfg.Tools is not applied here); nil when core/builtins is not linked.
func BuiltinTools(cfg BuiltinsConfig) []Tool {
	if p := tool.Builtins(); p != nil {
		return p.Tools(cfg)
	}
	return nil
}

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

// selectBuiltins returns the built-in tools cfg asks for (core/builtins'
// Select: the check of cfg.Tools is linked only with the tools).
func selectBuiltins(cfg BuiltinsConfig) ([]Tool, error) {
	if cfg.Tools["bash"] {
		return nil, errors.New(`Builtins: "bash" asked for` + noShellNote("bash"))
	}
	p := tool.Builtins()
	if p == nil {
		return nil, ErrBuiltinsNotLinked
	}
	return p.Select(cfg)
}
