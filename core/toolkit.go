package core

import (
	"cmp"
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io/fs"
	"maps"
	"slices"
	"sync"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/wire"
)

// Options configures CreateToolkit.
type Options struct {
	// Builtins chooses the built-in tools (builtins.go; BuiltinNames lists
	// them). They are on by default:
	//
	//	nil (unset), true   all of them, default settings
	//	false               none
	//	map[string]bool     all but those mapped to false
	//	BuiltinsConfig      per tool, plus the file system, webfetch's
	//	                    transport and size cap, approvals
	//
	// A name in the per-tool map that is no built-in is ignored, except
	// "bash": true, which is an error saying there is no
	// shell in core's sandbox. Any other value is an error. A built-in whose name an earlier tool
	// already has (ExtraTools, MCP, skill) is left out. A program links the
	// built-ins by importing core/builtins; without it, unset adds none.
	Builtins any
	// SkillsFS is core's own skill source: the SKILL.md files of any
	// fs.FS (LoadSkillsFS), with core's wording. Their "skill" tool is
	// added after ExtraTools and MCP, before the built-ins.
	// Toolkit.SkillsPrompt lists them; Toolkit.Skills().Problems reports the
	// ones skipped.
	SkillsFS fs.FS
	// LoadedSkills is a skill source loaded beforehand, by another loader
	// (package toolnexus's, say): its tool joins where SkillsFS's would,
	// and SkillsPrompt returns its Prompt. SkillsFS is then not read.
	LoadedSkills *LoadedSkills
	// ExtraTools are added in order; the first tool of a name wins.
	ExtraTools []Tool
	// MCP is an MCP configuration (see ParseMCPConfig). Its servers' tools
	// are added after ExtraTools; a server that fails is reported by
	// McpStatus and left out.
	MCP []byte
	// Variables fill ${NAME} in MCP header values (only from this map).
	Variables map[string]string
	// Transport carries MCP requests (default DefaultTransport()).
	Transport Transport
	// WaitFor answers MCP elicitation requests; without it (and without
	// WaitForContext) the toolkit does not advertise elicitation.
	WaitFor func(Request) (Answer, error)
	// WaitForContext is WaitFor with the tool call's context; it is used
	// instead of WaitFor when set.
	WaitForContext func(ctx context.Context, req Request) (Answer, error)
	// Approvals is the approval policy (core/approval): rules that decide
	// a call before it runs, first match wins — allow, deny (the model is
	// told why) or ask; no match leaves it to the tool's NeedsApproval —
	// the grants of "allow for this conversation", and OnDecision, which
	// receives every decision (RunResult.Decisions holds a run's). Rules
	// with a problem are an error naming every problem.
	Approvals *approval.Policy
}

// Toolkit is an ordered set of tools with unique names. It is safe for
// concurrent use.
type Toolkit struct {
	mu     sync.RWMutex
	tools  []Tool
	byName map[string]int
	closed bool
	// wire caches each provider's encoding of the tool list: it is sent on
	// every turn and only changes when a tool is registered.
	wire *wire.ToolList
	// mcp holds the MCP sessions (mcpclient.go).
	mcp []*mcpServer
	// skills is what the skill source held (skills_api.go); prompt is
	// LoadedSkills.Prompt when it came from there.
	skills       *SkillSet
	skillsPrompt *string
	policy       *approval.Policy // Options.Approvals (decide.go)
}

// validToolName applies the providers' rule ^[a-zA-Z0-9_-]{1,64}$ by hand:
// the regexp package would cost the wasm build far more than this loop.
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, c := range name {
		ok := c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}

// CreateToolkit assembles a toolkit. Assembly order is deterministic and the
// first tool of a name wins; a tool with an invalid name or no Execute is an
// error, and so is a relay tool named like a built-in (the Go port's ten,
// bash included), even with built-ins off.
func CreateToolkit(ctx context.Context, opts Options) (*Toolkit, error) {
	ctx = orBackground(ctx)
	tk := &Toolkit{byName: map[string]int{}, wire: new(wire.ToolList), policy: cmp.Or(opts.Approvals, &approval.Policy{})}
	if err := opts.Approvals.Check(); err != nil {
		return nil, fmt.Errorf("core: create toolkit: %w", err)
	}
	if err := checkRelayNames(opts.ExtraTools); err != nil {
		return nil, fmt.Errorf("core: create toolkit: %w", err)
	}
	for _, t := range opts.ExtraTools {
		if _, dup := tk.byName[t.Name]; dup {
			continue
		}
		if err := tk.Register(t); err != nil {
			return nil, fmt.Errorf("core: create toolkit: %w", err)
		}
	}
	if err := tk.addMCP(ctx, opts); err != nil {
		return nil, fmt.Errorf("core: create toolkit: %w", err)
	}
	if err := tk.addSkillsAndBuiltins(opts); err != nil {
		return nil, fmt.Errorf("core: create toolkit: %w", err)
	}
	return tk, nil
}

// Register adds a tool. Names follow the providers' rule
// (^[a-zA-Z0-9_-]{1,64}$) and must be unique.
func (tk *Toolkit) Register(t Tool) error {
	if !validToolName(t.Name) {
		return fmt.Errorf("tool name %q: use 1-64 letters, digits, '_' or '-'", t.Name)
	}
	if t.Execute == nil {
		return fmt.Errorf("tool %q has no Execute function", t.Name)
	}
	if t.InputSchema == nil {
		t.InputSchema = JSONSchema{"type": "object", "properties": map[string]any{}}
	}
	if t.Source == "" {
		t.Source = SourceCustom
	}
	t.NeedsApproval = t.NeedsApproval || t.AlwaysAsk
	tk.mu.Lock()
	defer tk.mu.Unlock()
	if tk.byName == nil {
		tk.byName = map[string]int{}
	}
	if _, dup := tk.byName[t.Name]; dup {
		return fmt.Errorf("tool %q is already registered", t.Name)
	}
	tk.byName[t.Name] = len(tk.tools)
	tk.tools = append(tk.tools, t)
	tk.wire = new(wire.ToolList)
	return nil
}

// Tools returns the tools in assembly order.
func (tk *Toolkit) Tools() []Tool {
	if tk == nil {
		return nil
	}
	tk.mu.RLock()
	defer tk.mu.RUnlock()
	return append([]Tool(nil), tk.tools...)
}

// Get returns the tool with the given name.
func (tk *Toolkit) Get(name string) (Tool, bool) {
	if tk == nil {
		return Tool{}, false
	}
	tk.mu.RLock()
	defer tk.mu.RUnlock()
	i, ok := tk.byName[name]
	if !ok {
		return Tool{}, false
	}
	return tk.tools[i], true
}

// Execute runs one tool directly, outside a model loop. A panic in the tool
// becomes an error result. It does not apply approval: that is the loop's
// job. An unknown name is an error.
func (tk *Toolkit) Execute(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	t, ok := tk.Get(name)
	if !ok {
		return ToolResult{}, fmt.Errorf("core: unknown tool %q%s", name, noShellNote(name))
	}
	if args == nil {
		args = map[string]any{}
	}
	return safeExecute(t, args, &ToolContext{Ctx: orBackground(ctx)}), nil
}

// SkillsPrompt is the system-prompt section listing the toolkit's skills
// that have a description ("" when there are none); see SkillSet.Prompt.
func (tk *Toolkit) SkillsPrompt() string {
	if tk != nil && tk.skillsPrompt != nil {
		return *tk.skillsPrompt
	}
	return tk.Skills().Prompt()
}

// Close releases the toolkit's resources. It is safe to call twice.
func (tk *Toolkit) Close() error {
	if tk == nil {
		return nil
	}
	tk.mu.Lock()
	tk.closed = true
	tk.mu.Unlock()
	tk.closeMCP()
	return nil
}

// ToOpenAI returns the toolkit's tools in OpenAI's chat "tools" shape.
func (tk *Toolkit) ToOpenAI() []any { return ToOpenAI(tk.Tools()) }

// ToAnthropic returns the toolkit's tools in Anthropic's "tools" shape.
func (tk *Toolkit) ToAnthropic() []any { return ToAnthropic(tk.Tools()) }

// ToGemini returns the toolkit's tools as one Gemini tool of function
// declarations.
func (tk *Toolkit) ToGemini() []any { return ToGemini(tk.Tools()) }

// wireTools returns the cached JSON of the tool list for a style, or nil when
// the toolkit is empty (the request then omits "tools").
func (tk *Toolkit) wireTools(style Style, f wire.Format) []byte {
	if tk == nil {
		return nil
	}
	tk.mu.RLock()
	list, tools := tk.wire, tk.tools
	tk.mu.RUnlock()
	if len(tools) == 0 {
		return nil
	}
	return list.Encoded(string(style), f, tools)
}

// WithApprovals is tk with policy p (nil: one of its own) in place of its
// own: the same tools, skills and cached encodings, for a server whose
// requests share a toolkit but never their grants. A tool registered into
// either later is the other's too only if it was there before. The MCP
// sessions stay tk's: close tk, not this one.
func (tk *Toolkit) WithApprovals(p *approval.Policy) *Toolkit {
	tk.mu.RLock()
	defer tk.mu.RUnlock()
	return &Toolkit{tools: slices.Clip(tk.tools), byName: maps.Clone(tk.byName), wire: tk.wire, skills: tk.skills,
		skillsPrompt: tk.skillsPrompt, policy: cmp.Or(p, &approval.Policy{})}
}

// Approvals is the toolkit's approval policy (Options.Approvals, else one of
// its own): its rules, and the "allow for this conversation" grants it
// holds (Grants, Revoke).
func (tk *Toolkit) Approvals() *approval.Policy { return tk.policy }
