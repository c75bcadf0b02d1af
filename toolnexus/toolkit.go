package toolnexus

import (
	"context"
)

// CreateToolkit assembles a toolkit: ExtraTools, then MCP, the skill tool,
// and last the built-ins that Options.Builtins leaves on (all ten by
// default; see BuiltinsEnabled). The first tool of a name wins, so a host's
// own "read" or "bash" shadows the built-in. When Options.Builtins is nil,
// a "builtins" key of a decoded McpConfig object is read instead.
func CreateToolkit(ctx context.Context, opts Options) (*Toolkit, error) {
	cfg := opts.Builtins
	if m, ok := opts.McpConfig.(map[string]any); ok && cfg == nil {
		cfg = m["builtins"]
	}
	opts.Builtins = false // core's own built-ins work in a sandbox; these use the host
	tk, err := createToolkit(ctx, opts)
	if err != nil {
		return nil, err
	}
	for _, t := range SelectBuiltins(cfg) {
		if _, taken := tk.Get(t.Name); taken {
			continue
		}
		if err := tk.Register(t); err != nil {
			tk.Close()
			return nil, err
		}
	}
	return tk, nil
}
