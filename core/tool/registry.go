package tool

import (
	"io/fs"
	"sync"
)

// The optional packages register themselves here from their init
// functions, so what a program links follows from what its main imports
// (as with database/sql drivers): core looks a provider up when Options
// ask for the feature, and says which import is missing when none is.

// BuiltinsProvider is what core/builtins registers. Tools makes every
// built-in over cfg, in BuiltinNames order (cfg.Tools is not applied);
// Select makes those cfg.Tools leaves on, and refuses a name it does not
// know, so that a typo does not silently leave a tool on.
type BuiltinsProvider struct {
	Tools  func(cfg BuiltinsConfig) []Tool
	Select func(cfg BuiltinsConfig) ([]Tool, error)
}

var (
	registryMu sync.RWMutex
	builtins   *BuiltinsProvider
)

// RegisterBuiltins records the built-ins' provider; the last one wins.
func RegisterBuiltins(p BuiltinsProvider) {
	registryMu.Lock()
	defer registryMu.Unlock()
	builtins = &p
}

// Builtins returns the registered built-ins' provider, or nil when no
// package of the program registered one.
func Builtins() *BuiltinsProvider {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return builtins
}

// SkillsLoader discovers the skills of an fs.FS. Package core/skills
// registers one.
type SkillsLoader func(fsys fs.FS) (*SkillSet, error)

var skills SkillsLoader

// RegisterSkills records the skills loader; the last one wins.
func RegisterSkills(l SkillsLoader) {
	registryMu.Lock()
	defer registryMu.Unlock()
	skills = l
}

// Skills returns the registered skills loader, or nil.
func Skills() SkillsLoader {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return skills
}
