package core

import (
	"context"
	"fmt"
	"sync"
)

// toolPhase is the tool-running half of one assistant turn: its calls and
// the results decided so far (from an earlier halt, or from an Answer).
type toolPhase struct {
	calls   []ToolRequest
	results []*toolOutcome
	// asked holds, by call index, the arguments the model asked for when
	// an approval edited them ("" for the others; nil until one is):
	// calls[i].Arguments is then what ran, and applyEdits rewrites the
	// turn's assistant message.
	asked []string
	// records holds each finished call's record by call index, so the
	// run's ToolCalls keep call order while calls finish concurrently.
	records []*ToolCall
	mu      sync.Mutex // guards asked, which any call may allocate
}

func (r *run) newToolPhase(calls []ToolRequest) *toolPhase {
	return &toolPhase{calls: calls, results: make([]*toolOutcome, len(calls)), records: make([]*ToolCall, len(calls))}
}

// setAsked notes that an approval edited call g: call is what runs, asked
// what the model asked for.
func (ph *toolPhase) setAsked(g int, call ToolRequest, asked string) {
	// Unlocked by hand, not deferred (a defer costs the wasm build more):
	// nothing between can panic, g being one of the phase's calls.
	ph.mu.Lock()
	if ph.asked == nil {
		ph.asked = make([]string, len(ph.calls))
	}
	ph.calls[g], ph.asked[g] = call, asked
	ph.mu.Unlock()
}

// flushRecords appends the phase's finished records to the run's, in call
// order, once.
func (r *run) flushRecords(ph *toolPhase) {
	for i, rec := range ph.records {
		if rec != nil {
			r.result.ToolCalls = append(r.result.ToolCalls, *rec)
			ph.records[i] = nil
		}
	}
}

// runTools runs every undecided call of the phase and appends the turn's
// results to the transcript. The calls of a turn run concurrently, as in the
// Go port; each call that suspends calls WaitFor on its own, so several
// questions can be open at once. Without WaitFor the turn halts on the first
// suspension in call order (see haltTurn). The returned Request is that halt
// — or, when the run is cancelled while a WaitFor waits, the request it
// waited on: then the halt comes with an error matching ErrWaitCancelled,
// and the transcript is the same resumable one.
func (r *run) runTools(ctx context.Context, ph *toolPhase) (*Request, error) {
	if err := ctx.Err(); err != nil {
		r.applyEdits(ph)
		r.flushRecords(ph)
		return nil, fmt.Errorf("core: run cancelled: %w", err)
	}
	var todo []int
	for i := range ph.calls {
		if ph.results[i] == nil {
			todo = append(todo, i)
		}
	}
	suspended := make([]*Request, len(ph.calls))
	waitCancelled := make([]bool, len(ph.calls))
	one := func(i int) { suspended[i], waitCancelled[i] = r.runCall(ctx, ph, i) }
	if len(todo) == 1 {
		// One call runs on this goroutine: a goroutine and a channel cost
		// a measurable share of a turn under js/wasm.
		one(todo[0])
	} else {
		var wg sync.WaitGroup
		for _, i := range todo {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				// A panic on this goroutine would escape the run's
				// recover and end the process (or the wasm instance).
				defer func() {
					if p := recover(); p != nil {
						r.finishCall(ph, i, ToolResult{Output: fmt.Sprintf("tool %q failed: core: panic: %v", ph.calls[i].Name, p), IsError: true}, nil)
					}
				}()
				one(i)
			}(i)
		}
		wg.Wait()
	}
	if err := r.aborted(); err != nil {
		r.applyEdits(ph)
		r.flushRecords(ph)
		return nil, err
	}
	halt, haltErr := r.haltTurn(ctx, ph, suspended, waitCancelled)
	r.applyEdits(ph)
	r.flushRecords(ph)
	outcomes := make([]toolOutcome, 0, len(ph.calls))
	for _, o := range ph.results {
		if o != nil { // nil: suspended behind the halt, runs on resume
			outcomes = append(outcomes, *o)
		}
	}
	for _, m := range r.c.wire.ToolResults(outcomes) {
		r.appendMessage(m)
	}
	return halt, haltErr
}

// runCall runs call i of the phase to its end: a result, or (no WaitFor, or
// a WaitFor cut short by the run's end) the Request it stays suspended on.
func (r *run) runCall(ctx context.Context, ph *toolPhase, i int) (*Request, bool) {
	res, req, ran := r.execCall(ctx, &ph.calls[i], nil)
	if req == nil {
		r.finishCall(ph, i, res, ran)
		return nil, false
	}
	if !r.c.hasWaitFor() {
		return req, false // haltTurn reports it, merged with the turn's other relay calls
	}
	r.emitEvent(StreamEvent{Type: EventPending, Request: req})
	ans, err := r.c.waitFor(ctx, *req)
	if ctx.Err() != nil {
		return req, true
	}
	if err != nil {
		ans = AnswerDeclined(req.ID, err.Error())
	}
	if ans.ID != req.ID {
		r.finishCall(ph, i, ToolResult{Output: fmt.Sprintf("tool %q was not run: the answer id %q does not match the request id %q", ph.calls[i].Name, ans.ID, req.ID), IsError: true}, nil)
		return nil, false
	}
	r.resolve(ctx, ph, []int{i}, ans, false)
	return nil, false
}
