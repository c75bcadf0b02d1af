package core

import fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

// addSkillsAndBuiltins is CreateToolkit's step after ExtraTools and MCP: the
// skill tool (the skill options), then the built-ins (Options.Builtins) in
// BuiltinNames order. A tool whose name is already taken is left out, so a
// host's own tool (say a relay "read", or a "bash") wins over a built-in.
//
// In a program that does not import core/builtins the default (Builtins
// unset) adds no built-ins, and asking for them explicitly is
// ErrBuiltinsNotLinked; Skills without core/skills is ErrSkillsNotLinked.
func (tk *Toolkit) addSkillsAndBuiltins(opts Options) error {
	var tools []Tool
	switch src := opts.LoadedSkills; {
	case src != nil:
		tk.skills, tk.skillsPrompt = src.Set, &src.Prompt
		if src.Tool.Execute != nil {
			tools = append(tools, src.Tool)
		}
	case opts.SkillsFS != nil:
		set, err := LoadSkillsFS(opts.SkillsFS)
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
