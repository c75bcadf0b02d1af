package tool

import "io/fs"

// HostFiles reads the host's own file system, for the Go port's APIs that
// take paths (LoadSkills(dirs...), Options.SkillsDir, an MCP config file).
// Native builds register OSFiles (hostfiles_native.go); under js/wasm none
// is registered — a page or a Worker has no files of its own, and the
// browser build links no file-system code — so those APIs find nothing
// there: pass an fs.FS or JSON bytes instead.
type HostFiles struct {
	// DirsFS overlays directories as one fs.FS: a path is the first
	// directory's that has it, a folder lists all of theirs. The FS also
	// has Origin(path) string: the directory a path comes from.
	DirsFS func(dirs []string) fs.FS
	// ReadFile reads one file.
	ReadFile func(name string) ([]byte, error)
}

var hostFiles *HostFiles

// RegisterHostFiles records the host file access; the last one wins.
func RegisterHostFiles(h HostFiles) {
	registryMu.Lock()
	defer registryMu.Unlock()
	hostFiles = &h
}

// Files returns the registered host file access, or nil.
func Files() *HostFiles {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return hostFiles
}
