package core

import (
	"context"
	"encoding/json"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"
	"time"

	"github.com/toolnexus/wasm/core/wire"
)

// run is the state of one Run / RunWithAnswer call.
type run struct {
	c      *Client
	tk     *Toolkit
	tr     transcript
	result RunResult
	// stream, when set, makes model calls stream and receives every event.
	stream func(StreamEvent)
	// callDeltas passes tool-call deltas (EventToolCallDelta) to stream;
	// only TranslateStream asks for them.
	callDeltas bool
	// tools, when toolsSet, is the encoded tool list a Hooks.BeforeLLM
	// put in place of the toolkit's (nil: send none).
	tools    []byte
	toolsSet bool
	// reply is the last provider reply, kept for Hooks.AfterLLM and, when
	// keepReply, for TranslateResult.Raw.
	reply     []byte
	keepReply bool
	// body is the buffer of the last request, reused for the next one
	// when the Transport copies bodies (callModel).
	body []byte
	// mu guards abortErr (a hook error from one of a turn's concurrent
	// tool calls, which ends the run once the turn's calls are done) and id.
	mu       sync.Mutex
	abortErr error
	// jr is the run's journal (journal.go), nil for a run without one;
	// id is the run's id when it has no journal (runID).
	jr *journaled
	id string
	// ctx is the run's context while its loop runs: a call it cuts off
	// has no outcome to record.
	ctx context.Context
}

func (c *Client) newRun(tk *Toolkit, history []any) (*run, error) {
	if c.err != nil {
		return nil, c.err
	}
	msgs, err := encodeHistory(history)
	if err != nil {
		return nil, err
	}
	r := &run{c: c, tk: tk}
	r.tr.reserve(msgs)
	for _, m := range msgs {
		r.tr.add(m)
	}
	r.result.Model = c.opts.Model
	r.result.ToolCalls = []ToolCall{} // [] rather than null in JSON
	return r, nil
}

func (r *run) appendMessage(m json.RawMessage) { r.tr.add(m) }

// loop alternates model calls and tool phases. resume, when set, is the tool
// phase of a halted turn to finish before the next model call.
func (r *run) loop(ctx context.Context, resume *toolPhase) (RunResult, error) {
	start := clock()
	runCtx := ctx
	if r.c.opts.TimeoutMs > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, time.Duration(r.c.opts.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	r.ctx = runCtx
	res, err := r.turns(runCtx, resume)
	if err != nil && runCtx != ctx && ctx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		res, err = timedOut(res, r.c.opts.TimeoutMs, err)
	}
	r.recordEnd(ctx, res, err)
	r.c.emit(MetricEvent{Kind: "run", Model: r.c.opts.Model, Status: res.Status, Duration: clock() - start, Usage: res.Usage, Err: errText(err),
		Turns: res.Turns, ToolCalls: res.ToolCallCount})
	return res, err
}

func (r *run) turns(ctx context.Context, resume *toolPhase) (res RunResult, err error) {
	// A panic in a hook or in WaitFor must not take the process (or the wasm
	// instance) down: it ends this run with an error and the transcript so far.
	defer func() {
		if p := recover(); p != nil {
			res, err = r.finish(StatusIncomplete, "error"), fmt.Errorf("core: run panicked: %v", p)
		}
	}()
	for {
		if resume == nil {
			if r.result.Turns >= r.c.opts.MaxTurns {
				return r.finish(StatusIncomplete, "maxTurns"), nil
			}
			if err := ctx.Err(); err != nil {
				return r.finish(StatusIncomplete, "error"), fmt.Errorf("core: run stopped: %w", err)
			}
			resp, err := r.callModel(ctx)
			if err != nil {
				return r.finish(StatusIncomplete, "error"), err
			}
			msg := r.c.wire.AssistantMessage(resp)
			r.appendMessage(msg)
			if err := r.recordTurn(ctx, resp, msg); err != nil {
				return r.finish(StatusIncomplete, "error"), err
			}
			r.result.Text = resp.Text
			u := resp.Usage
			r.emitEvent(StreamEvent{Type: EventUsage, Usage: &u})
			if len(resp.ToolCalls) == 0 {
				return r.finish(StatusDone, ""), nil
			}
			resume = r.newToolPhase(resp.ToolCalls)
		}
		halt, err := r.runTools(ctx, resume)
		resume = nil
		if halt != nil {
			r.result.Pending = halt
			return r.finish(StatusPending, ""), err
		}
		if err != nil {
			return r.finish(StatusIncomplete, "error"), err
		}
	}
}

func (r *run) finish(status, limit string) RunResult {
	r.result.Status, r.result.Limit = status, limit
	r.result.Messages = r.tr.asAny()
	r.result.ToolCallCount = len(r.result.ToolCalls)
	return r.result
}

// callModel performs one provider call, through the hooks.
func (r *run) callModel(ctx context.Context) (LLMResponse, error) {
	o := &r.c.opts
	turn := r.result.Turns + 1
	if err := r.recordModel(ctx, turn); err != nil {
		return LLMResponse{}, err
	}
	h := o.Hooks
	model, short, err := r.beforeLLM(ctx, h, turn-1)
	if err != nil {
		return LLMResponse{}, err
	}
	if model != o.Model {
		turnOpts := *o
		turnOpts.Model = model
		o = &turnOpts
	}
	tools := r.wireTools()
	// A transport that has copied the body when Do returns lets the run
	// write every request into one buffer: with a long history each
	// request is as large as the whole transcript.
	_, copies := o.Transport.(interface{ CopiesRequestBody() })
	reuse := copies && o.BodyTransform == nil
	var dst []byte
	if reuse {
		dst = r.body[:0]
	}
	body := r.c.wire.Body(dst, r.c.requestParams(o, len(tools) > 0), r.tr.joined, tools, r.stream != nil)
	if reuse {
		r.body = body
	}
	r.reply = nil
	var resp LLMResponse
	if short != nil {
		resp = *short
		wire.DropMessage(&resp)
	} else if resp, err = r.request(ctx, body); err != nil {
		return LLMResponse{}, err
	}
	if h != nil && h.AfterLLM != nil {
		call := &LLMCall{Turn: turn - 1, Model: model, Reply: r.reply, Streamed: short == nil && r.stream != nil}
		if err := h.AfterLLM(ctx, call, &resp); err != nil {
			return LLMResponse{}, fmt.Errorf("core: AfterLLM hook: %w", err)
		}
		wire.DropMessage(&resp) // the hook may have changed it: rebuild
	}
	r.result.Turns = turn
	wire.AddUsage(&r.result.Usage, resp.Usage)
	if resp.Model != "" {
		r.result.ProviderModel = resp.Model
	}
	return resp, nil
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
