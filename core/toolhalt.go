package core

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// The halting side of a tool phase: the placeholders a halted transcript
// carries, the Request a turn halts on, an Answer applied to its calls,
// and the host's WaitFor around them.

// Placeholders stand in for the results of the calls a halted run waits on.
// RunWithAnswer recognises and replaces them; it also takes the not-run
// placeholder (written by web/durable-wait.mjs) as a call to run again.
const (
	pendingMarker = "[toolnexus:pending "
	notRunMarker  = "[toolnexus:not-run]"
)

func pendingPlaceholder(reqID string) string {
	return pendingMarker + reqID + "] awaiting an answer; the tool has not run"
}

func isPlaceholder(content string) bool {
	return strings.HasPrefix(content, pendingMarker) || strings.HasPrefix(content, notRunMarker)
}

// haltTurn picks the Request the turn halts on: the first suspension in call
// order. Without WaitFor the turn's later relay calls ride the same Request
// (Data["calls"], in call order). Every other suspended call is left
// without a result, so a second question never enters the transcript: it
// runs again on resume (and may ask then). Calls that finished keep their
// results.
func (r *run) haltTurn(ctx context.Context, ph *toolPhase, suspended []*Request, waitCancelled []bool) (*Request, error) {
	first := -1
	for i, req := range suspended {
		if req != nil {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, nil
	}
	halt := suspended[first]
	group := []int{first}
	if IsRelayRequest(halt) && !waitCancelled[first] {
		calls, _ := halt.Data[relayCallsKey].([]any)
		for j := first + 1; j < len(suspended); j++ {
			if IsRelayRequest(suspended[j]) {
				more, _ := suspended[j].Data[relayCallsKey].([]any)
				calls = append(calls, more...)
				group = append(group, j)
			}
		}
		halt.Data[relayCallsKey] = calls
	}
	var haltErr error
	if waitCancelled[first] {
		haltErr = fmt.Errorf("%w: %w", ErrWaitCancelled, ctx.Err())
	} else {
		r.emitEvent(StreamEvent{Type: EventPending, Request: halt})
	}
	for _, g := range group {
		ph.results[g] = &toolOutcome{ID: ph.calls[g].ID, Content: pendingPlaceholder(halt.ID), IsError: true}
	}
	return halt, haltErr
}

// ErrWaitCancelled is what errors.Is finds when a run was cancelled while
// WaitFor waited for an answer. The run's result is then a durable halt,
// exactly as without WaitFor — Status "pending", Pending set, Messages
// ready for RunWithAnswer — so a host can keep the question for later.
var ErrWaitCancelled = errors.New("core: run cancelled while waiting for an answer")

// resolve applies an Answer to the calls that suspended on its Request.
// durable tells a resume (RunWithAnswer) from an inline WaitFor answer: the
// port words a missing relay output differently for each.
func (r *run) resolve(ctx context.Context, ph *toolPhase, group []int, ans Answer, durable bool) {
	for k, g := range group {
		call := ph.calls[g]
		var res ToolResult
		var ran map[string]any
		t, _ := r.tk.Get(call.Name)
		switch {
		case !ans.Ok:
			res = declinedResult(call.Name, ans.Reason)
		case t.Source == SourceRelay:
			if rr, ok := relayResultFor(ans, call.ID, k == 0); ok {
				res = ToolResult{Output: rr.Output, IsError: rr.IsError}
			} else {
				res = missingRelayOutput(call.Name, durable)
			}
		default:
			var again *Request
			asked := call.Arguments
			res, again, ran = r.execCall(ctx, &call, &ans)
			if call.Arguments != asked {
				if asked == "" {
					asked = "{}" // no arguments, as parseArgs reads them; "" marks an unedited call
				}
				ph.setAsked(g, call, asked)
			}
			if again != nil {
				res = ToolResult{Output: fmt.Sprintf("tool %q suspended again after its request was answered; giving up on this call", call.Name), IsError: true}
			}
		}
		r.finishCall(ph, g, res, ran)
	}
}

func (c *Client) hasWaitFor() bool { return c.opts.WaitFor != nil || c.opts.WaitForContext != nil }

// waitFor asks the host for an answer, but gives up when ctx ends: a person
// who never answers must not keep a cancelled run alive. WaitFor itself
// cannot be interrupted, so it is left to finish on its own goroutine.
func (c *Client) waitFor(ctx context.Context, req Request) (Answer, error) {
	type reply struct {
		ans Answer
		err error
	}
	done := make(chan reply, 1)
	go func() {
		var r reply
		defer func() {
			if p := recover(); p != nil {
				r = reply{err: fmt.Errorf("WaitFor panicked: %v", p)}
			}
			done <- r
		}()
		if c.opts.WaitForContext != nil {
			r.ans, r.err = c.opts.WaitForContext(ctx, req)
		} else {
			r.ans, r.err = c.opts.WaitFor(req)
		}
	}()
	select {
	case r := <-done:
		return r.ans, r.err
	case <-ctx.Done():
		return Answer{}, ctx.Err()
	}
}
