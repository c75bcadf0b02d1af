//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"
	"syscall/js"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
)

// agentsAPI adds createRuntime and restoreRuntime to the API object; nil
// until EnableAgents, so a main that never calls it links none of the agents
// code. toolnexus.mjs then reports createAgent as needing the tools build.
var agentsAPI func(api js.Value)

// EnableAgents links agent teams (core/agents) into the API object that
// NewAPI builds. The tools build's main (wasm/browser-tools) calls it
// beside EnableTools.
func EnableAgents() { agentsAPI = linkedAgentsAPI }

// Agents (core/agents) cross the boundary the way clients do: an agent is a
// plain JS spec object that Go reads once per runtime, and a runtime is a
// handle whose methods return Promises of JSON text (agents_runtime.go).
// Only a main that calls EnableAgents links them (the tools build,
// wasm/browser-tools): core/agents and this glue cost about 69 kB of gzip'd
// wasm, too much for the default browser build's budget.
//
//	api.createRuntime(options)            Promise<Runtime>
//	api.restoreRuntime(options, snapshot) Promise<Runtime>
//
// options: {agent, baseURL, style, apiKey, model, headers, fetch, generate,
// waitFor, onEvent, onStream, onMetric, timeoutMs, retries, retryBaseMs,
// toolTimeoutMs}. agent is
// {name, does, instructions, tools, team: [agent], budget, model, waitFor}.
func linkedAgentsAPI(api js.Value) {
	api.Set("createRuntime", asyncMethod(func(args []js.Value) (any, error) {
		d := newDialogs()
		opts, root, err := runtimeOptions(argAt(args, 0), d)
		if err != nil {
			return nil, fmt.Errorf("createRuntime: %w", err)
		}
		return runtimeHandle(agents.NewRuntime(opts), root, d), nil
	}))
	api.Set("restoreRuntime", asyncMethod(func(args []js.Value) (any, error) {
		d := newDialogs()
		opts, root, err := runtimeOptions(argAt(args, 0), d)
		if err != nil {
			return nil, fmt.Errorf("restoreRuntime: %w", err)
		}
		snap := argAt(args, 1)
		if snap.Type() != js.TypeString {
			return nil, errors.New("restoreRuntime: the snapshot must be the text runtime.snapshot() returned")
		}
		rt, err := agents.RestoreRuntime(opts, stringBytes(snap))
		if err != nil {
			return nil, fmt.Errorf("restoreRuntime: %w", err)
		}
		return runtimeHandle(rt, root, d), nil
	}))
}

// runtimeOptions reads createRuntime's options: the model, the interpreters
// and the agent whose team makes the registry. It returns the agent's name.
func runtimeOptions(o js.Value, d *dialogs) (agents.Options, string, error) {
	var opts agents.Options
	if o.Type() != js.TypeObject {
		return opts, "", errors.New("options must be an object")
	}
	t, err := NewFetchTransport(o.Get("fetch"))
	if err != nil {
		return opts, "", err
	}
	root, err := agentFromJS(o.Get("agent"), agentEnv{tools: ToolEnv{Transport: t}, dialogs: d, seen: map[string]builtAgent{}})
	if err != nil {
		return opts, "", fmt.Errorf("agent: %w", err)
	}
	opts.Registry = root.Registry()
	if gen := o.Get("generate"); isFunc(gen) {
		opts.Generate = generateFunc(gen)
	} else {
		llm := &agents.LLMOptions{BaseURL: str(o, "baseURL"), Style: core.Style(str(o, "style")), APIKey: str(o, "apiKey"), Model: str(o, "model")}
		if llm.BaseURL == "" {
			return opts, "", errors.New("baseURL is required (or pass generate)")
		}
		if h := o.Get("headers"); h.Type() == js.TypeObject {
			if err := fromJS(h, &llm.Headers); err != nil {
				return opts, "", fmt.Errorf("headers must map names to strings: %w", err)
			}
		}
		opts.LLM, opts.Transport = llm, t
	}
	opts.ClientOptions = core.ClientOptions{
		TimeoutMs: intProp(o, "timeoutMs"), Retries: intProp(o, "retries"),
		RetryBaseMs: intProp(o, "retryBaseMs"), ToolTimeoutMs: intProp(o, "toolTimeoutMs"),
	}
	if w := o.Get("waitFor"); isFunc(w) {
		opts.WaitForContext = d.waitFor(w)
	}
	if fn := o.Get("onEvent"); isFunc(fn) {
		opts.OnEvent = func(e agents.Event) { _, _ = call(fn, eventJSON(e)) }
	}
	// onStream makes every agent's turns stream; core's events and metrics
	// cross as core encodes them, labelled with the agent's handle and path.
	if fn := o.Get("onStream"); isFunc(fn) {
		opts.OnStream = func(e agents.StreamEvent) { _, _ = call(fn, labelled(e.StreamEvent, e.Handle, e.Path)) }
	}
	if fn := o.Get("onMetric"); isFunc(fn) {
		opts.OnMetric = func(e agents.MetricEvent) { _, _ = call(fn, labelled(e.MetricEvent, e.Handle, e.Path)) }
	}
	return opts, root.Name, nil
}

// dialogs is the context of a runtime's open waitFors, besides each turn's
// own: an aborted run or a released runtime cancels it, so the JS waitFor's
// signal aborts and a dialog closes instead of staying open for a run that
// is gone (an interrupted or closed turn cancels its own context).
type dialogs struct {
	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
}

func newDialogs() *dialogs {
	d := &dialogs{}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	return d
}

func (d *dialogs) current() context.Context {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ctx
}

// closeAll aborts every open waitFor; later ones get a fresh context.
func (d *dialogs) closeAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cancel()
	d.ctx, d.cancel = context.WithCancel(context.Background())
}

// waitFor adapts a JS waitFor to the interpreter's signature: its signal
// aborts when the turn ends or the runtime's dialogs close.
func (d *dialogs) waitFor(fn js.Value) func(context.Context, core.Request) (core.Answer, error) {
	wf := WaitFor(fn)
	return func(ctx context.Context, req core.Request) (core.Answer, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(d.current(), cancel)
		defer stop()
		return wf(ctx, req)
	}
}
