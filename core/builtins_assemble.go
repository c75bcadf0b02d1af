package core

import (
	"context"
	"fmt"
)

// addSkillsAndBuiltins is CreateToolkit's step after ExtraTools and MCP: the
// skill tool (the skill options), then the built-ins (Options.Builtins) in
// BuiltinNames order. A tool whose name is already taken is left out, so a
// host's own tool (say a relay "read", or a "bash") wins over a built-in.
//
// In a program that does not import core/builtins the default (Builtins
// unset) adds no built-ins, and asking for them explicitly is
// ErrBuiltinsNotLinked; Skills without core/skills is ErrSkillsNotLinked.
func (tk *Toolkit) addSkillsAndBuiltins(ctx context.Context, opts Options, port *portLayer) error {
	var tools []Tool
	switch portOpt := portSkillsOption(opts); {
	case portOpt != "":
		if port == nil {
			return errNeedsPortToolkit(portOpt)
		}
		src, err := port.skills(ctx, opts)
		if err != nil {
			return err
		}
		tk.skillSource, tk.skills = src, src.set
		tools = append(tools, src.Tool)
	case opts.SkillsFS != nil:
		set, err := LoadSkillsFS(opts.SkillsFS)
		if err != nil {
			return err
		}
		tk.skills = set
		tools = append(tools, set.Tool())
	}
	cfg, on, err := builtinsConfigOf(opts.Builtins, port)
	if err != nil {
		return err
	}
	if on && (opts.Builtins != nil || BuiltinsLinked()) {
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
