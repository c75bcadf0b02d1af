package toolnexus

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
)

// Options configures CreateToolkit: core's Options with the Go port's
// forms (McpConfig, the skill sources, Builtins as the port's config
// object).
type Options struct {
	// Builtins: nil or true (all), false (none), a map[string]bool (all
	// but those mapped to false), a core.BuiltinsConfig, or the Go port's
	// config object (map[string]any: "enabled", "disabled", "tools"; other
	// keys ignored).
	Builtins any
	// SkillsDir, Skills, SkillProvider, SkillsFilter and SkillSampleLimit
	// are the Go port's skill sources and settings (see LoadSkillsWith);
	// SkillsFS, if set too, is read as one more directory.
	SkillsDir        []string
	Skills           []SkillDef
	SkillProvider    func(context.Context) ([]SkillDef, error)
	SkillsFilter     map[string]bool
	SkillSampleLimit int
	SkillsFS         fs.FS
	ExtraTools       []core.Tool
	// McpConfig is a file path, JSON bytes, an McpConfig or a decoded map
	// (see ParseMcpConfig). MCP, when set, is used instead.
	McpConfig      any
	MCP            []byte
	Variables      map[string]string
	Transport      core.Transport
	WaitFor        func(core.Request) (core.Answer, error)
	WaitForContext func(ctx context.Context, req core.Request) (core.Answer, error)
	// Agents are remote A2A agents: each skill on an agent's card becomes
	// a tool (source "a2a"), as do the agents of an "agents" block of a
	// decoded McpConfig (a2a.go).
	Agents []Agent
	// Approvals is core's approval policy (not the Go port's): rules that
	// allow, deny or ask about a call before it runs, the grants of "allow
	// for this conversation", and the record of every decision (OnDecision;
	// RunResult.Decisions). See core/approval.
	Approvals *approval.Policy
}

// Toolkit is an ordered set of tools with unique names: core's Toolkit,
// with the port's McpStatus. It is safe for concurrent use.
type Toolkit struct {
	*core.Toolkit
	// serve is what the "a2a" and "mcpServer" blocks of a decoded
	// McpConfig ask Serve for (serve.go).
	serve serveBlocks
}

// coreToolkit is tk's core toolkit (nil for nil).
func coreToolkit(tk *Toolkit) *core.Toolkit {
	if tk == nil {
		return nil
	}
	return tk.Toolkit
}

// createToolkit assembles a toolkit (see core.CreateToolkit).
func createToolkit(ctx context.Context, opts Options) (*Toolkit, error) {
	ctx = orBackground(ctx)
	o, err := coreOptions(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("core: create toolkit: %w", err)
	}
	if agents := optionAgents(ctx, opts); len(agents) > 0 {
		o.ExtraTools = append(append([]core.Tool(nil), o.ExtraTools...), agents...)
	}
	tk, err := core.CreateToolkit(ctx, o)
	if err != nil {
		return nil, err
	}
	return &Toolkit{Toolkit: tk, serve: serveBlocksOf(opts.McpConfig)}, nil
}

// coreOptions reads opts' port forms into core's.
func coreOptions(ctx context.Context, opts Options) (core.Options, error) {
	o := core.Options{Builtins: opts.Builtins, SkillsFS: opts.SkillsFS, ExtraTools: opts.ExtraTools,
		MCP: opts.MCP, Variables: opts.Variables, Transport: opts.Transport, WaitFor: opts.WaitFor,
		WaitForContext: opts.WaitForContext, Approvals: opts.Approvals}
	if m, ok := opts.Builtins.(map[string]any); ok {
		cfg, on, err := builtinsObject(m)
		if err != nil {
			return o, err
		}
		o.Builtins = false
		if on {
			o.Builtins = cfg
		}
	}
	if o.MCP == nil && opts.McpConfig != nil {
		var err error
		if o.MCP, err = mcpConfigBytes(opts.McpConfig); err != nil {
			return o, err
		}
	}
	if len(o.MCP) > 0 {
		// Only MCP headers read Variables: the environment is copied only then.
		o.Variables = withEnvironment(opts.Variables)
	}
	if portSkillsOption(opts) != "" {
		src, err := toolkitSkills(ctx, opts)
		if err != nil {
			return o, err
		}
		o.LoadedSkills = &core.LoadedSkills{Set: src.set, Tool: src.Tool, Prompt: src.prompt}
	}
	return o, nil
}

// The Toolkit's methods, safe on a nil toolkit as core's are.

// Tools returns the tools in assembly order.
func (tk *Toolkit) Tools() []core.Tool { return coreToolkit(tk).Tools() }

// Get returns the tool with the given name.
func (tk *Toolkit) Get(name string) (core.Tool, bool) { return coreToolkit(tk).Get(name) }

// Execute runs one tool directly, outside a model loop; an unknown name is
// the error result "Unknown tool: <name>", as in the port (core's Execute
// makes it an error).
func (tk *Toolkit) Execute(ctx context.Context, name string, args map[string]any) (core.ToolResult, error) {
	if _, ok := tk.Get(name); !ok {
		return core.ToolResult{Output: "Unknown tool: " + name + noShellNote(name), IsError: true}, nil
	}
	return coreToolkit(tk).Execute(ctx, name, args)
}

// noShellNote explains a call to a missing "bash": natively the built-in
// exists and was left out by Options.Builtins; under js/wasm there is no
// shell to run it in.
func noShellNote(name string) string {
	switch {
	case name != "bash":
		return ""
	case runtime.GOOS == "js":
		return "; this build runs in a sandbox (browser, Worker, WebAssembly) with no shell to run commands in — a host that has one can register its own tool named bash"
	}
	return "; the bash built-in is off in this toolkit (Options.Builtins)"
}

// SkillsPrompt is the system-prompt section listing the toolkit's skills.
func (tk *Toolkit) SkillsPrompt() string { return coreToolkit(tk).SkillsPrompt() }

// Skills returns what the toolkit's skills source found, or nil.
func (tk *Toolkit) Skills() *core.SkillSet { return coreToolkit(tk).Skills() }

// MCPServers reports each configured MCP server by name.
func (tk *Toolkit) MCPServers() map[string]core.MCPStatus { return coreToolkit(tk).MCPServers() }

// Close releases the toolkit's resources. It is safe to call twice.
func (tk *Toolkit) Close() error { return coreToolkit(tk).Close() }

// ToOpenAI returns the toolkit's tools in OpenAI's chat "tools" shape.
func (tk *Toolkit) ToOpenAI() []any { return coreToolkit(tk).ToOpenAI() }

// ToAnthropic returns the toolkit's tools in Anthropic's "tools" shape.
func (tk *Toolkit) ToAnthropic() []any { return coreToolkit(tk).ToAnthropic() }

// ToGemini returns the toolkit's tools as one Gemini tool.
func (tk *Toolkit) ToGemini() []any { return coreToolkit(tk).ToGemini() }
