//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"
	"syscall/js"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/tool"
)

// A2A agents in createToolkit (only in a wasm that imports core/a2a and
// calls EnableA2A, toolnexus-tools.wasm; elsewhere a2aAgents is errNoA2A):
//
//	{a2aAgents: {name: {card, url?, headers?, timeout?, pollEvery?, enabled?, disabled?}},
//	 variables: {NAME: "value"}, waitFor}
//	tk.a2aStatus()  Promise<{name: {status: "connected"|"disabled"|"failed", reason?, tools, card?}}>
//
// a2aAgents may also be a whole config with a top-level "agents" (the Go
// port's block; core/a2a.Parse). Each skill on an agent's card becomes a
// tool (source "a2a"); variables fill ${NAME} in header values (only from
// that map); requests go through the toolkit's fetch. A remote task that
// asks for input suspends the call with a Request (kind "input", or
// "authorization" for a sign-in) that the client's waitFor — the approval
// dialog — answers; without waitFor the run halts "pending". An agent that
// fails is reported by tk.a2aStatus() and adds no tools.

// a2aGlue is the bridge's A2A code, reached only through function values
// EnableA2A sets, so that the default browser build links none of it.
type a2aGlue struct {
	options  func(agents js.Value, env ToolEnv, o *core.Options) (map[string]tool.A2AStatus, error)
	remember func(tk *core.Toolkit, status map[string]tool.A2AStatus)
	methods  func(method func(string, func([]js.Value) (any, error)), tk *core.Toolkit)
}

var a2a *a2aGlue

// EnableA2A links createToolkit's a2aAgents and tk.a2aStatus(). The tools
// build's main (wasm/browser-tools) calls it before NewAPI, beside
// importing core/a2a, which registers the A2A client itself.
func EnableA2A() {
	a2a = &a2aGlue{options: linkedA2AOptions, remember: linkedRememberA2A, methods: linkedA2AMethods}
}

// a2aOptions adds the tools of createToolkit's a2aAgents to o.ExtraTools
// and returns each agent's status.
func a2aOptions(opts js.Value, env ToolEnv, o *core.Options) (map[string]tool.A2AStatus, error) {
	if opts.Type() != js.TypeObject {
		return nil, nil
	}
	agents := opts.Get("a2aAgents")
	if agents.IsUndefined() || agents.IsNull() {
		return nil, nil
	}
	if a2a == nil || tool.A2A() == nil {
		return nil, errNoA2A
	}
	return a2a.options(agents, env, o)
}

// errNoA2A is createToolkit's answer to a2aAgents in a wasm without the A2A
// client: the default browser build (toolnexus.wasm) leaves it to the tools
// build.
var errNoA2A = errors.New(`createToolkit: a2aAgents need toolnexus-tools.wasm (load({wasm: "toolnexus-tools.wasm"})); the default toolnexus.wasm has no A2A client`)

// rememberA2A keeps a toolkit's agents' status for tk.a2aStatus(); nil
// status (no a2aAgents) forgets it.
func rememberA2A(tk *core.Toolkit, status map[string]tool.A2AStatus) {
	if a2a != nil {
		a2a.remember(tk, status)
	}
}

// a2aMethods adds tk.a2aStatus() in a build that called EnableA2A.
func a2aMethods(method func(string, func([]js.Value) (any, error)), tk *core.Toolkit) {
	if a2a != nil {
		a2a.methods(method, tk)
	}
}

var (
	a2aStatusMu sync.Mutex
	a2aStatuses map[*core.Toolkit]map[string]tool.A2AStatus
)

func linkedA2AOptions(agents js.Value, env ToolEnv, o *core.Options) (map[string]tool.A2AStatus, error) {
	if agents.Type() != js.TypeObject {
		return nil, errors.New("createToolkit: a2aAgents must be an object of name ⇒ agent")
	}
	text, err := jsonOf(agents)
	if err != nil {
		return nil, fmt.Errorf("createToolkit: a2aAgents: %w", err)
	}
	p := tool.A2A()
	parsed, err := p.Parse([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("createToolkit: %w", err)
	}
	vars := env.Variables
	tools, status := p.Tools(context.Background(), parsed, tool.A2AEnv{Transport: env.Transport,
		Fill: func(v string) (string, error) { return tool.FillVariables(v, vars, nil) }})
	o.ExtraTools = append(o.ExtraTools, tools...)
	return status, nil
}

func linkedRememberA2A(tk *core.Toolkit, status map[string]tool.A2AStatus) {
	a2aStatusMu.Lock()
	defer a2aStatusMu.Unlock()
	if a2aStatuses == nil {
		a2aStatuses = map[*core.Toolkit]map[string]tool.A2AStatus{}
	}
	if status == nil {
		delete(a2aStatuses, tk)
		return
	}
	a2aStatuses[tk] = status
}

func linkedA2AMethods(method func(string, func([]js.Value) (any, error)), tk *core.Toolkit) {
	method("a2aStatus", func([]js.Value) (any, error) {
		a2aStatusMu.Lock()
		defer a2aStatusMu.Unlock()
		out := a2aStatuses[tk]
		if out == nil {
			out = map[string]tool.A2AStatus{}
		}
		return toJS(out), nil
	})
}
