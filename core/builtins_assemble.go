package core

import (
	"errors"
	"fmt"
)

// errToolsNotLinked is CreateToolkit's error when Options asks for skills or
// built-ins in a build without them (see ToolsLinked).
var errToolsNotLinked = errors.New("this js/wasm build leaves out skills and built-in tools; build with -tags toolnexus_tools")

// addSkillsAndBuiltins is CreateToolkit's step after ExtraTools and MCP: the
// skill tool (Options.Skills), then the built-ins (Options.Builtins) in
// BuiltinNames order. A tool whose name is already taken is left out, so a
// host's own tool (say a relay "read", or a "bash") wins over a built-in.
//
// In a build without them (SkillsLinked or BuiltinsLinked false) the
// default (Builtins unset or false, no Skills) adds nothing, and asking for
// what is missing is an error.
func (tk *Toolkit) addSkillsAndBuiltins(opts Options) error {
	builtinsOff := false
	if b, isBool := opts.Builtins.(bool); opts.Builtins == nil || isBool && !b {
		builtinsOff = true
	}
	if !SkillsLinked && opts.Skills != nil {
		return errToolsNotLinked
	}
	if !BuiltinsLinked {
		if !builtinsOff {
			return errToolsNotLinked
		}
		opts.Builtins = false
	}
	var tools []Tool
	if SkillsLinked && opts.Skills != nil {
		set, err := LoadSkills(opts.Skills)
		if err != nil {
			return err
		}
		tk.skills = set
		tools = append(tools, set.Tool())
	}
	cfg, on, err := builtinsConfigOf(opts.Builtins)
	if err != nil {
		return err
	}
	if BuiltinsLinked && on {
		if cfg.Transport == nil {
			cfg.Transport = opts.Transport
		}
		b, err := selectBuiltins(cfg)
		if err != nil {
			return err
		}
		tools = append(tools, b...)
	}
	for _, t := range tools {
		if _, taken := tk.Get(t.Name); taken {
			continue
		}
		if err := tk.Register(t); err != nil {
			return fmt.Errorf("%s tool %q: %w", t.Source, t.Name, err)
		}
	}
	return nil
}
