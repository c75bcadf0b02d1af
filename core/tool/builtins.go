package tool

import "github.com/toolnexus/wasm/core/vfs"

// SourceBuiltin marks the tools of package core/builtins.
const SourceBuiltin ToolSource = "builtin"

// BuiltinNames lists the built-in tools in their assembly order. There is
// no "bash": a sandbox has no shell. A host that has one registers its own
// tool of that name.
var BuiltinNames = []string{"question", "webfetch", "todowrite", "read", "write", "edit", "glob", "grep", "apply_patch"}

// BuiltinsConfig is the full form of core's Options.Builtins.
type BuiltinsConfig struct {
	// Tools turns single tools on or off by name: a name mapped to false is
	// left out; absent or true stays in. An unknown name is an error, so a
	// typo does not silently leave a tool on.
	Tools map[string]bool
	// Files is the virtual file system of read, write, edit, glob, grep and
	// apply_patch. nil: a fresh in-memory one (vfs.NewMemFS) per toolkit.
	Files vfs.FileSystem
	// Transport carries webfetch's requests. nil: DefaultTransport().
	Transport Transport
	// MaxFetchBytes caps the body webfetch reads (default 512 KiB); more is
	// cut off with a note.
	MaxFetchBytes int
	// Match compiles grep patterns. nil: Go's regexp (RE2 syntax) in native
	// builds, the host's JavaScript RegExp under js/wasm (Go's regexp would
	// add about 125 kB of gzip'd wasm); grep's description names the
	// dialect to the model.
	Match Matcher
	// NoApproval lets write, edit and apply_patch run without asking. By
	// default each of their calls suspends for an approval first.
	NoApproval bool
}

// Matcher compiles a grep pattern into a line predicate.
type Matcher func(pattern string) (func(line string) bool, error)
