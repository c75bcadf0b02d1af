package core

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/toolnexus/wasm/internal/textx"
)

// execCall runs one call: hooks, approval, the tool itself. It returns either
// a finished result or the Request the call suspends with. When an approval
// edits the arguments, call.Arguments becomes the JSON of the arguments
// that run, before the hooks see the call: BeforeTool, AfterTool and the
// metric event all carry what ran. The map it returns with a result is
// the arguments the tool (or a hook's stand-in) ran with, after a
// BeforeTool rewrite: the record's Args, as in the Go port.
func (r *run) execCall(ctx context.Context, call *ToolRequest, answer *Answer) (ToolResult, *Request, map[string]any) {
	t, ok := r.tk.Get(call.Name)
	if !ok {
		return ToolResult{Output: fmt.Sprintf("unknown tool %q; available tools: %s%s", call.Name, r.toolNames(), noShellNote(call.Name)), IsError: true}, nil, nil
	}
	args, err := parseArgs(call.Arguments)
	if err != nil {
		return ToolResult{Output: fmt.Sprintf("invalid arguments for tool %q: %v", call.Name, err), IsError: true}, nil, nil
	}
	asked := call.Arguments
	approved := t.NeedsApproval && answer != nil
	if approved {
		if _, edited := answer.Data["args"]; edited && r.c.opts.LockApprovedArgs {
			return ToolResult{Output: fmt.Sprintf("tool %q was not run: the approval changed its arguments, which this host does not accept", call.Name), IsError: true}, nil, nil
		}
		ran, err := approvedArgs(t, args, answer)
		if err != nil {
			return ToolResult{Output: fmt.Sprintf("tool %q was not run: %v", call.Name, err), IsError: true}, nil, nil
		}
		if text := mustJSON(ran); text != mustJSON(args) {
			call.Arguments = text // edited by the approval
		}
		args = ran
	}
	if p := r.c.port; p != nil && answer == nil {
		// The port's BeforeTool sees a call once: not again when an
		// answer re-runs it.
		var stand *ToolResult
		if args, stand, err = p.beforeTool(r, ctx, *call, args); err != nil {
			r.abort(err)
			return ToolResult{Output: err.Error(), IsError: true}, nil, nil
		}
		if stand != nil {
			if req := PendingOf(*stand); req != nil {
				// Counted as a suspension, as the tool's own would be.
				r.c.emit(MetricEvent{Kind: "tool", Tool: t.Name, Source: string(t.Source), Pending: true, Args: call.Arguments})
				if req.ID == "" {
					req.ID = newID("req_")
				}
				return ToolResult{}, req, nil
			}
			return r.afterTool(ctx, *call, args, *stand), nil, args
		}
	}
	hooks := r.c.opts.RawHooks
	if hooks.BeforeTool != nil {
		short, err := hooks.BeforeTool(ctx, *call, args)
		if err != nil {
			return ToolResult{Output: fmt.Sprintf("tool %q was not run: %v", call.Name, err), IsError: true}, nil, nil
		}
		if short != nil {
			return r.afterTool(ctx, *call, args, *short), nil, args
		}
	}
	if answer == nil && r.stream != nil {
		// The event gets its own copy: the tool may change its map.
		own, _ := parseArgs(call.Arguments)
		r.emitEvent(StreamEvent{Type: EventToolCall, ID: call.ID, Name: call.Name, Args: own, ArgsJSON: call.Arguments})
	}
	tctx := &ToolContext{Ctx: ctx, Timeout: r.c.opts.ToolTimeoutMs, CallID: call.ID, Answer: answer}
	if t.NeedsApproval {
		if answer == nil {
			req := approvalRequest(t, call.ID, args)
			return ToolResult{}, &req, nil
		}
		tctx.Answer = nil // the approval answered the loop, not the tool
	}
	start := time.Now()
	res := safeExecute(t, args, tctx)
	event := MetricEvent{Kind: "tool", Tool: t.Name, Source: string(t.Source), Duration: time.Since(start), IsError: res.IsError, Args: call.Arguments}
	if call.Arguments != asked {
		event.OriginalArgs = asked
	}
	if req := PendingOf(res); req != nil {
		event.Pending, event.IsError = true, false
		r.c.emit(event)
		if req.ID == "" {
			req.ID = newID("req_")
		}
		return ToolResult{}, req, nil
	}
	res = r.afterTool(ctx, *call, args, res)
	event.IsError = res.IsError
	r.c.emit(event)
	return res, nil, args
}

// afterTool runs the after-tool hooks on a finished result: RawHooks'
// first, then the port's Hooks (whose error ends the run).
func (r *run) afterTool(ctx context.Context, call ToolRequest, args map[string]any, res ToolResult) ToolResult {
	if h := r.c.opts.RawHooks.AfterTool; h != nil {
		if err := h(ctx, call, &res); err != nil {
			return ToolResult{Output: fmt.Sprintf("AfterTool hook for %q failed: %v", call.Name, err), IsError: true}
		}
	}
	if p := r.c.port; p != nil {
		var err error
		if res, err = p.afterTool(r, ctx, call, args, res); err != nil {
			r.abort(err)
		}
	}
	return res
}

func (r *run) toolNames() string {
	var names []string
	for _, t := range r.tk.Tools() {
		names = append(names, t.Name)
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// parseArgs decodes a call's argument text; empty means no arguments.
func parseArgs(s string) (map[string]any, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return map[string]any{}, nil
	}
	args, err := decodeObject([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("%w: %s", err, textx.Truncate(s, 200))
	}
	return args, nil
}

// declinedResult is the error result for a refused call. Its text carries the
// reason so the model can explain the refusal or try something else.
func declinedResult(name, reason string) ToolResult {
	if reason == "" {
		reason = "declined"
	}
	return ToolResult{Output: fmt.Sprintf("tool %q was not run: declined: %s", name, reason), IsError: true,
		Metadata: map[string]any{declinedKey: reason}}
}

// declinedKey marks a declined call's result (its value is the reason), so
// its record and event say so apart from a failure.
const declinedKey = "declined"
