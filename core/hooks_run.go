package core

import (
	"context"
	"fmt"
)

// How the run applies the port-shaped Hooks. Everything here runs only when
// a hook is set: a run without Hooks never decodes its transcript.

// beforeLLMHook runs Hooks.BeforeLLM for model call turn (0-based) and
// applies its override: a new transcript or tool list for the rest of the
// run, a model for this call. It returns that model ("" for the configured
// one).
func (r *run) beforeLLMHook(ctx context.Context, turn int) (string, error) {
	h := r.c.opts.Hooks
	if h == nil || h.BeforeLLM == nil {
		return "", nil
	}
	// One decode of the joined transcript (the loop checked each message).
	all, _ := decodeJSON(append(append([]byte{'['}, r.tr.joined...), ']'))
	msgs, _ := all.([]any)
	if msgs == nil {
		msgs = []any{}
	}
	ov, err := h.BeforeLLM(ctx, BeforeLLMEvent{Messages: msgs, Tools: r.hookTools(), Model: r.c.opts.Model, Turn: turn})
	if err != nil || ov == nil {
		return "", err
	}
	if ov.Messages != nil {
		enc, err := encodeHistory(ov.Messages)
		if err != nil {
			return "", fmt.Errorf("core: BeforeLLM hook: messages: %w", err)
		}
		r.tr = transcript{}
		for _, m := range enc {
			r.tr.add(m)
		}
	}
	if ov.Tools != nil {
		b, err := marshalJSON(ov.Tools)
		if err != nil {
			return "", fmt.Errorf("core: BeforeLLM hook: tools: %w", err)
		}
		if len(ov.Tools) == 0 {
			b = nil // no tools: the request leaves "tools" out
		}
		r.tools, r.toolsSet = b, true
	}
	return ov.Model, nil
}

// hookTools is the tool list the next request sends, as Go values.
func (r *run) hookTools() []any {
	if r.toolsSet {
		if r.tools == nil {
			return []any{}
		}
		v, _ := decodeJSON(r.tools)
		list, _ := v.([]any)
		return list
	}
	// Decoded from the request's own bytes: maps in the provider's shape
	// (the Go port hands OpenAITool / AnthropicTool structs; the JSON is
	// the same).
	list := []any{}
	if b := r.tk.wireTools(r.c.opts.Style); b != nil {
		v, _ := decodeJSON(b)
		list, _ = v.([]any)
	}
	return list
}

// wireTools is the encoded tool list of the next request.
func (r *run) wireTools() []byte {
	if r.toolsSet {
		return r.tools
	}
	return r.tk.wireTools(r.c.opts.Style)
}

// afterLLMHook runs Hooks.AfterLLM with the reply of model call turn.
func (r *run) afterLLMHook(ctx context.Context, turn int, model string, reply []byte, streamed bool) error {
	h := r.c.opts.Hooks
	if h == nil || h.AfterLLM == nil {
		return nil
	}
	ev := AfterLLMEvent{Model: model, Turn: turn}
	switch {
	case streamed:
		ev.Response = map[string]any{"streamed": true}
	case reply != nil:
		ev.Response, _ = decodeObject(reply)
	}
	if err := h.AfterLLM(ctx, ev); err != nil {
		return fmt.Errorf("core: AfterLLM hook: %w", err)
	}
	return nil
}

// beforeToolHook runs Hooks.BeforeTool. It returns the arguments to run
// with, or a result that stands in for the tool.
func (r *run) beforeToolHook(ctx context.Context, call ToolRequest, args map[string]any) (map[string]any, *ToolResult, error) {
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
		return args, nil, nil
	case ov.Result != nil:
		res := *ov.Result
		return args, &res, nil
	case ov.Args != nil:
		return ov.Args, nil, nil
	}
	return args, nil, nil
}

// afterToolHook runs Hooks.AfterTool on a finished result.
func (r *run) afterToolHook(ctx context.Context, call ToolRequest, args map[string]any, res ToolResult) (ToolResult, error) {
	h := r.c.opts.Hooks
	if h == nil || h.AfterTool == nil {
		return res, nil
	}
	ov, err := h.AfterTool(ctx, AfterToolEvent{Name: call.Name, Args: args, Result: res, ID: call.ID, Turn: r.result.Turns - 1})
	if err != nil {
		return res, fmt.Errorf("core: AfterTool hook for %q: %w", call.Name, err)
	}
	if ov != nil && ov.Result != nil {
		res = *ov.Result
	}
	return res, nil
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
