package agents

import (
	"context"
	"errors"

	"github.com/toolnexus/wasm/core"
)

// StreamEvent is one of core's stream events (text deltas, tool calls and
// results, pending, usage) of an agent's turn, with the agent that caused
// it. Turn ends are reported by Options.OnEvent ("settled").
type StreamEvent struct {
	core.StreamEvent
	Handle string
	Path   []string
}

// drive runs one client call: plainly, or — when Options.OnStream is set —
// streamed, with every non-terminal event forwarded with h's path.
func (rt *Runtime) drive(ctx context.Context, h *Handle, run func() (core.RunResult, error), stream func() (<-chan core.StreamEvent, error)) (core.RunResult, error) {
	if rt.opts.OnStream == nil {
		return run()
	}
	flow := newStreamFlow()
	rt.mu.Lock()
	h.flow = flow
	rt.mu.Unlock()
	defer flow.end()
	ch, err := stream()
	if err != nil {
		return core.RunResult{}, err
	}
	var r core.RunResult
	var runErr error
	ended := false
	for ev := range ch {
		switch ev.Type {
		case core.EventDone, core.EventError:
			ended = true
			if ev.Result != nil {
				r = *ev.Result
			}
			runErr = ev.Err
		default:
			rt.forward(StreamEvent{StreamEvent: ev, Handle: h.ID, Path: h.path})
			if ev.Type == core.EventToolCall && ev.Name == taskToolName {
				flow.forward(ev.ID)
			}
		}
	}
	if !ended { // a cancelled stream may drop its final event
		runErr = context.Cause(ctx)
		if runErr == nil {
			runErr = errors.New("agents: the stream ended without a result")
		}
	}
	return r, runErr
}

// forward hands e to Options.OnStream; a panicking observer is ignored.
func (rt *Runtime) forward(e StreamEvent) {
	defer func() { _ = recover() }()
	rt.opts.OnStream(e)
}
