package core

import (
	"context"
	"encoding/json"
	"fmt"
)

// Hooks are the lifecycle callbacks around the loop (ClientOptions.Hooks).
// A nil Hooks, or a nil field, is skipped. Any hook that returns an error
// ends the run with that error (Status "incomplete", Limit "error"). The
// hooks of one turn's tool calls may run concurrently, as the calls do.
//
// The model-call hooks see the transcript and the tool list as the encoded
// messages the loop keeps: a hook that needs Go values decodes what it
// reads, and a run without it decodes nothing.
type Hooks struct {
	// BeforeLLM runs before each model call. It may replace call.Messages
	// or call.Tools (kept for the rest of the run) and call.Model (this
	// call only), or return a response to use instead of calling the
	// provider.
	BeforeLLM func(ctx context.Context, call *LLMCall) (*LLMResponse, error)
	// AfterLLM runs after each model call and may rewrite the parsed reply
	// before the loop acts on it.
	AfterLLM func(ctx context.Context, call *LLMCall, resp *LLMResponse) error
	// BeforeTool runs before a tool (once: not again when an Answer runs
	// the call once more): an override with Result set answers for the
	// tool (it does not run; a Pending result suspends the call), one with
	// Args set changes its arguments.
	BeforeTool func(ctx context.Context, ev BeforeToolEvent) (*ToolOverride, error)
	// AfterTool runs after a tool finished (not when it suspended): an
	// override with Result set replaces the result.
	AfterTool func(ctx context.Context, ev AfterToolEvent) (*ToolOverride, error)
}

// LLMCall is one model call as Hooks.BeforeLLM and Hooks.AfterLLM see it.
type LLMCall struct {
	// Turn counts model calls from 0.
	Turn int
	// Model is the model this call asks for.
	Model string
	// Messages is the transcript in the provider's format, without the
	// system prompt (core sends that apart).
	Messages []json.RawMessage
	// Tools is the tool list in the provider's format (nil: none; a
	// BeforeLLM that sets "[]" sends none).
	Tools json.RawMessage
	// Reply is the provider's reply body, for AfterLLM; nil when the reply
	// was streamed (Streamed) or a BeforeLLM answered instead.
	Reply    json.RawMessage
	Streamed bool
}

// BeforeToolEvent is what Hooks.BeforeTool sees.
type BeforeToolEvent struct {
	Name string
	Args map[string]any
	ID   string
	Turn int
}

// AfterToolEvent is what Hooks.AfterTool sees.
type AfterToolEvent struct {
	Name   string
	Args   map[string]any
	Result ToolResult
	ID     string
	Turn   int
}

// ToolOverride is what Hooks.BeforeTool and Hooks.AfterTool may return.
type ToolOverride struct {
	Args   map[string]any
	Result *ToolResult
}

// beforeLLM runs Hooks.BeforeLLM for model call turn (0-based) and applies
// what it changed: the transcript or the tool list for the rest of the run.
// It returns the model to ask and the hook's stand-in reply, if any.
func (r *run) beforeLLM(ctx context.Context, h *Hooks, turn int) (string, *LLMResponse, error) {
	model := r.c.opts.Model
	if h == nil || h.BeforeLLM == nil {
		return model, nil, nil
	}
	msgs := append([]json.RawMessage(nil), r.tr.msgs...)
	tools := r.wireTools()
	call := &LLMCall{Turn: turn, Model: model, Messages: msgs, Tools: tools}
	short, err := h.BeforeLLM(ctx, call)
	if err != nil {
		return model, nil, err
	}
	if !sameMessages(call.Messages, r.tr.msgs) {
		list := make([]any, len(call.Messages))
		for i, m := range call.Messages {
			list[i] = m
		}
		enc, err := encodeHistory(list)
		if err != nil {
			return model, nil, fmt.Errorf("core: BeforeLLM hook: messages: %w", err)
		}
		r.tr = transcript{}
		for _, m := range enc {
			r.tr.add(m)
		}
	}
	if string(call.Tools) != string(tools) {
		r.tools, r.toolsSet = call.Tools, true
		if string(call.Tools) == "[]" {
			r.tools = nil // no tools: the request leaves "tools" out
		}
	}
	if call.Model != "" {
		model = call.Model
	}
	return model, short, nil
}

// sameMessages reports whether a holds b's messages (the same bytes).
func sameMessages(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) || (len(a[i]) > 0 && &a[i][0] != &b[i][0]) {
			return false
		}
	}
	return true
}

// wireTools is the encoded tool list of the next request.
func (r *run) wireTools() []byte {
	if r.toolsSet {
		return r.tools
	}
	return r.tk.wireTools(r.c.opts.Style, r.c.wire)
}

// beforeTool runs Hooks.BeforeTool. It returns the arguments to run with,
// or a result that stands in for the tool.
func (r *run) beforeTool(ctx context.Context, call ToolRequest, args map[string]any) (map[string]any, *ToolResult, error) {
	h := r.c.opts.Hooks
	if h == nil || h.BeforeTool == nil {
		return args, nil, nil
	}
	ov, err := h.BeforeTool(ctx, BeforeToolEvent{Name: call.Name, Args: args, ID: call.ID, Turn: r.result.Turns - 1})
	if err != nil {
		return args, nil, fmt.Errorf("core: BeforeTool hook for %q: %w", call.Name, err)
	}
	switch {
	case ov == nil:
	case ov.Result != nil:
		res := *ov.Result
		return args, &res, nil
	case ov.Args != nil:
		return ov.Args, nil, nil
	}
	return args, nil, nil
}

// afterTool runs Hooks.AfterTool on a finished result; its error ends the
// run once the turn's calls are done.
func (r *run) afterTool(ctx context.Context, call ToolRequest, args map[string]any, res ToolResult) ToolResult {
	h := r.c.opts.Hooks
	if h == nil || h.AfterTool == nil {
		return res
	}
	ov, err := h.AfterTool(ctx, AfterToolEvent{Name: call.Name, Args: args, Result: res, ID: call.ID, Turn: r.result.Turns - 1})
	if err != nil {
		r.abort(fmt.Errorf("core: AfterTool hook for %q: %w", call.Name, err))
		return res
	}
	if ov != nil && ov.Result != nil {
		res = *ov.Result
	}
	return res
}

// abort records the first error that ends the run from inside a tool phase
// (a hook's); runTools returns it once the turn's calls are done.
// Both unlock by hand rather than deferred: nothing between can panic.
func (r *run) abort(err error) {
	r.mu.Lock()
	if r.abortErr == nil {
		r.abortErr = err
	}
	r.mu.Unlock()
}

func (r *run) aborted() error {
	r.mu.Lock()
	err := r.abortErr
	r.mu.Unlock()
	return err
}
