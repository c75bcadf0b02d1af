package core

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
	"sync"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/internal/textx"
)

// One turn's tool phase, in call order: runTools runs the turn's calls
// (runCall each: execCall with the hooks and approval, then WaitFor and
// resolve when it suspends), then haltTurn decides whether the run halts
// on a suspension no WaitFor answered.

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
	mu      sync.Mutex // guards asked, which any call may allocate, and attempts
	// turn is the model call the phase belongs to (0: the halted turn a
	// resume begins with), for the journal.
	turn int
	// For a continued run (continue.go): prior holds, by call index, what
	// the journal recorded of a call that has no outcome; attempts how
	// often each call was begun; waiting the request a call still waits
	// on, which it asks again rather than running (nil otherwise).
	prior    []*journal.Call
	attempts []int
	waiting  []*Request
}

func (r *run) newToolPhase(calls []ToolRequest) *toolPhase {
	return &toolPhase{calls: calls, results: make([]*toolOutcome, len(calls)), records: make([]*ToolCall, len(calls)), turn: r.result.Turns}
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
	r.continueCalls(ctx, ph)
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
	if err := r.aborted(); err != nil && haltErr == nil {
		haltErr = err // the journal failed to record the halt
	}
	r.closePhase(ph)
	return halt, haltErr
}

// closePhase ends the phase: its turn's message carries the arguments that
// ran, its records join the run's in call order, and its results join the
// transcript.
func (r *run) closePhase(ph *toolPhase) {
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
}

// runCall runs call i of the phase to its end: a result, or (no WaitFor, or
// a WaitFor cut short by the run's end) the Request it stays suspended on.
func (r *run) runCall(ctx context.Context, ph *toolPhase, i int) (*Request, bool) {
	var req *Request
	if ph.waiting != nil && ph.waiting[i] != nil {
		req = ph.waiting[i] // from the journal: asked again, not run
	} else {
		res, suspended, ran := r.execCall(ctx, ph, i, &ph.calls[i], nil, answerVia{})
		if suspended == nil {
			r.finishCall(ph, i, res, ran)
			return nil, false
		}
		req = suspended
	}
	if !r.c.hasWaitFor() {
		return req, false // haltTurn reports it, merged with the turn's other relay calls
	}
	if err := r.recordSuspend(ctx, ph, i, req); err != nil {
		r.abort(err)
		return nil, false
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
	if err := r.recordAnswer(ctx, ans); err != nil {
		r.abort(err)
		return nil, false
	}
	via := answerVia{req: req, from: approval.FromWaitFor}
	if req.Kind == KindOutcomeUnknown {
		r.settleUnknown(ctx, ph, i, ans, via)
		return nil, false
	}
	r.resolve(ctx, ph, []int{i}, ans, via)
	return nil, false
}

// execCall runs one call: hooks, approval, the tool itself. It returns either
// a finished result or the Request the call suspends with. When an approval
// edits the arguments, call.Arguments becomes the JSON of the arguments
// that run, before the hooks see the call: BeforeTool, AfterTool and the
// metric event all carry what ran. The map it returns with a result is
// the arguments the tool (or a hook's stand-in) ran with, after a
// BeforeTool rewrite: the record's Args, as in the Go port.
func (r *run) execCall(ctx context.Context, ph *toolPhase, i int, call *ToolRequest, answer *Answer, via answerVia) (ToolResult, *Request, map[string]any) {
	t, ok := r.tk.Get(call.Name)
	if !ok {
		return ToolResult{Output: fmt.Sprintf("unknown tool %q; available tools: %s%s", call.Name, r.toolNames(), noShellNote(call.Name)), IsError: true}, nil, nil
	}
	args, err := parseArgs(call.Arguments)
	if err != nil {
		return ToolResult{Output: fmt.Sprintf("invalid arguments for tool %q: %v", call.Name, err), IsError: true}, nil, nil
	}
	asked := call.Arguments
	// The rules are read again when an answer arrives: a call they now
	// deny does not run, approved or not.
	v := r.verdict(t, call, args)
	if v.Decision == approval.Deny {
		r.decide(ctx, ph, call, asked, &approval.Entry{Decision: approval.Denied, Rule: v.Rule, Reason: v.Reason, From: approval.FromRule})
		return approval.DeniedResult(call.Name, v), nil, nil
	}
	needs := (t.NeedsApproval || v.Decision == approval.Ask && t.Source != SourceRelay) && v.Decision != approval.Allow // a relay call is the host's to answer
	rule := cmp.Or(v.Rule, t.ApprovalRule)
	var pre *approval.Entry // the decision recorded as the call begins
	if needs && answer != nil {
		if _, edited := answer.Data["args"]; edited && r.c.opts.LockApprovedArgs {
			return ToolResult{Output: fmt.Sprintf("tool %q was not run: the approval changed its arguments, which this host does not accept", call.Name), IsError: true}, nil, nil
		}
		ran, err := approval.EditedArgs(t, args, answer)
		if err != nil {
			return ToolResult{Output: fmt.Sprintf("tool %q was not run: %v", call.Name, err), IsError: true}, nil, nil
		}
		if text := mustJSON(ran); text != mustJSON(args) {
			call.Arguments = text // edited by the approval
		}
		args = ran
		if via.req != nil {
			e := approval.Answered(*via.req, *answer, via.from)
			pre = &e
		}
	}
	if answer == nil {
		// BeforeTool sees a call once: not again when an answer re-runs it.
		var stand *ToolResult
		if args, stand, err = r.beforeTool(ctx, *call, args); err != nil {
			r.abort(err)
			return ToolResult{Output: err.Error(), IsError: true}, nil, nil
		}
		if stand != nil {
			if req := PendingOf(*stand); req != nil {
				// A hook's suspension is the call's, as a tool's is: a
				// metric tagged Pending, not an error.
				r.c.emit(MetricEvent{Kind: "tool", Tool: t.Name, Source: string(t.Source), Pending: true, Args: call.Arguments})
				if req.ID == "" {
					req.ID = newID("req_")
				}
				return ToolResult{}, req, nil
			}
			return r.afterTool(ctx, *call, args, *stand), nil, args
		}
	}
	if answer == nil && r.stream != nil {
		// The event gets its own copy: the tool may change its map.
		own, _ := parseArgs(call.Arguments)
		r.emitEvent(StreamEvent{Type: EventToolCall, ID: call.ID, Name: call.Name, Args: own, ArgsJSON: call.Arguments})
	}
	tctx := &ToolContext{Ctx: ctx, Timeout: r.c.opts.ToolTimeoutMs, CallID: call.ID, Answer: answer}
	if h := r.c.opts.Hooks; answer != nil || h == nil || h.BeforeTool == nil {
		tctx.ArgsJSON = call.Arguments // no hook could have replaced args
	}
	if needs {
		if answer == nil {
			g, ok := r.tk.policy.Granted(r.grantScope(ctx), t.Name, args)
			if !ok || t.AlwaysAsk {
				req := approval.Request(t, call.ID, args, rule)
				return ToolResult{}, &req, nil
			}
			pre = &approval.Entry{Decision: approval.Approved, Rule: rule, GrantedBy: g.ID, Approver: g.Approver, From: approval.FromGrant}
		}
		tctx.Answer = nil // the approval answered the loop, not the tool
	} else if v.Decision == approval.Allow && answer == nil {
		pre = &approval.Entry{Decision: approval.Allowed, Rule: v.Rule, Reason: v.Reason, From: approval.FromRule}
	}
	if pre != nil && !r.decide(ctx, ph, call, asked, pre) {
		return ToolResult{Output: fmt.Sprintf("tool %q was not run: %v", call.Name, r.aborted()), IsError: true}, nil, nil
	}
	tctx.IdempotencyKey = r.runID() + ":" + call.ID
	if err := r.recordCall(ctx, ph, i, call, asked, tctx.IdempotencyKey); err != nil {
		// Not recorded as begun, so not run: a continuation decides.
		r.abort(err)
		return ToolResult{Output: fmt.Sprintf("tool %q was not run: %v", call.Name, err), IsError: true}, nil, nil
	}
	start := clock()
	res := safeExecute(t, args, tctx)
	event := MetricEvent{Kind: "tool", Tool: t.Name, Source: string(t.Source), Duration: clock() - start, IsError: res.IsError, Args: call.Arguments}
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

// haltTurn picks the Request the turn halts on: the first suspension in call
// order. Without WaitFor the turn's later relay calls ride the same Request
// (Data["calls"], in call order). Every other suspended call gets the
// not-run placeholder and runs again on resume; calls that finished keep
// their results.
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
			switch {
			case suspended[j] != nil && suspended[j].ID == halt.ID:
				group = append(group, j) // merged already (a continued halt)
			case IsRelayRequest(suspended[j]):
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
		for _, g := range group {
			if err := r.recordSuspend(ctx, ph, g, halt); err != nil {
				r.abort(err)
			}
		}
		r.emitEvent(StreamEvent{Type: EventPending, Request: halt})
	}
	for _, g := range group {
		ph.results[g] = &toolOutcome{ID: ph.calls[g].ID, Content: pendingPlaceholder(halt.ID), IsError: true}
	}
	for i := range ph.calls {
		if ph.results[i] == nil {
			ph.results[i] = &toolOutcome{ID: ph.calls[i].ID, Content: notRunMarker + " the run halted before this call", IsError: true}
		}
	}
	return halt, haltErr
}

// answerVia is how an answer came: the request it answers (nil: a call run
// again, its approval recorded before), from where (for the record), and
// whether by a resume (the port words a missing relay output apart).
type answerVia struct {
	req     *Request
	from    string
	durable bool
}

// resolve applies an Answer to the calls that suspended on its Request.
func (r *run) resolve(ctx context.Context, ph *toolPhase, group []int, ans Answer, via answerVia) {
	durable := via.durable
	isApproval := via.req != nil && via.req.Kind == KindApproval
	for k, g := range group {
		call := ph.calls[g]
		var res ToolResult
		var ran map[string]any
		t, _ := r.tk.Get(call.Name)
		switch {
		case !ans.Ok && (!t.RunsOnDecline || t.NeedsApproval || isApproval):
			if isApproval {
				e := approval.Answered(*via.req, ans, via.from)
				r.decide(ctx, ph, &call, call.Arguments, &e)
			}
			res = declinedResult(call.Name, ans.Reason)
		case ans.Recorded != nil:
			res = *ans.Recorded
			res.Metadata = map[string]any{recordedKey: true}
		case t.Source == SourceRelay:
			if rr, ok := relayResultFor(ans, call.ID, k == 0); ok {
				res = ToolResult{Output: rr.Output, IsError: rr.IsError}
			} else {
				res = missingRelayOutput(call.Name, durable)
			}
		default:
			var again *Request
			asked := call.Arguments
			res, again, ran = r.execCall(ctx, ph, g, &call, &ans, via)
			res.IsError = res.IsError || !ans.Ok // a tool's decline is never a success (RunsOnDecline)
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
	args, err := jsonx.DecodeObject([]byte(s))
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

// Placeholders stand in for results while a run is halted, so the halted
// transcript stays balanced. RunWithAnswer recognises and replaces them.
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

// ErrWaitCancelled is what errors.Is finds when a run was cancelled while
// WaitFor waited for an answer. The run's result is then a durable halt,
// exactly as without WaitFor — Status "pending", Pending set, Messages
// ready for RunWithAnswer — so a host can keep the question for later.
var ErrWaitCancelled = errors.New("core: run cancelled while waiting for an answer")

// The records of a finished call: the transcript's tool call, the result's
// ToolCall record, the tool_result event. They tell what ran: when an approval
// edited the arguments, the edited ones, with the model's beside them.

// finishCall records a call's final result and reports it. When an
// approval edited the call's arguments, the record and the event carry the
// arguments that ran and, beside them, the ones the model asked for. ran
// is the argument map the tool ran with (nil when it did not run: the
// call's own arguments are decoded instead).
func (r *run) finishCall(ph *toolPhase, i int, res ToolResult, ran map[string]any) {
	call := ph.calls[i]
	if ran == nil {
		ran, _ = parseArgs(call.Arguments)
	}
	ph.results[i] = &toolOutcome{ID: call.ID, Content: res.Output, IsError: res.IsError}
	rec := ToolCall{ID: call.ID, Name: call.Name, Args: ran, RawArgs: rawArgs(call.Arguments), Output: res.Output, IsError: res.IsError, Metadata: res.Metadata}
	e := StreamEvent{Type: EventToolResult, ID: call.ID, Name: call.Name, Output: res.Output, IsError: res.IsError}
	ph.mu.Lock()
	asked := ""
	if ph.asked != nil {
		asked = ph.asked[i]
	}
	ph.mu.Unlock()
	if asked != "" {
		rec.OriginalArgs, rec.Edited = rawArgs(asked), true
		e.ArgsJSON, e.OriginalArgs, e.Edited = call.Arguments, asked, true
	}
	if _, ok := res.Metadata[declinedKey].(string); ok {
		rec.Declined, e.Declined = true, true
	}
	ph.records[i] = &rec
	recorded, _ := res.Metadata[recordedKey].(bool)
	r.recordOutcome(ph, i, &rec, recorded)
	r.emitEvent(e)
}

// applyEdits rewrites the turn's assistant message, the last one of the
// transcript while its tool phase runs, so that its tool calls carry the
// arguments that ran (records tell what ran; the originals stay in
// ToolCall.OriginalArgs and the tool_result events).
func (r *run) applyEdits(ph *toolPhase) {
	if ph.asked == nil || len(r.tr.msgs) == 0 {
		return
	}
	msg := wire.WithArgs(r.c.wire, r.tr.msgs[len(r.tr.msgs)-1], ph.calls, ph.asked)
	r.tr.setLast(msg)
	ph.asked = nil
}

// rawArgs keeps argument text that is JSON as it is, and encodes any other
// text (invalid, or nested too deeply) as a JSON string.
func rawArgs(s string) json.RawMessage {
	args := json.RawMessage(s)
	if jsonx.Check(args) != nil {
		args, _ = jsonx.Marshal(s)
	}
	return args
}
