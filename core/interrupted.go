package core

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strconv"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// What a continued run does with the calls an interruption left open, in
// one place: continueCalls settles them before the phase's other calls
// run, by the rules of core/journal.

// KindOutcomeUnknown is the kind of the Request a continued run waits on
// when an approved call began and its outcome was never recorded (the
// process stopped while it ran) and its tool is not Idempotent: running
// it again could do it twice, so a person says what happened. Data holds
// "tool", "args" (what ran), "callId", "approval" (the id of the request
// that approved it) and "attempts". Answer it with AnswerOutcome (it
// happened: its result), AnswerRunAgain, or AnswerDeclined (it did not
// happen: recorded as failed, with the reason).
const KindOutcomeUnknown = "outcome_unknown"

// The Answer.Data keys of an answer to a KindOutcomeUnknown request.
const (
	outcomeKey   = "outcome"
	outcomeRerun = "rerun"
	outcomeDone  = "happened"
)

// AnswerOutcome answers a KindOutcomeUnknown request: the call happened,
// and output (Data[RelayOutputKey]) is its result as the model will read it.
//
//	a := AnswerOutcome("unk_2_call_1_1", "refunded order 42") // {Ok:true, Data:{"outcome":"happened","output":"refunded order 42"}}
func AnswerOutcome(id, output string) Answer {
	return Answer{ID: id, Ok: true, Data: map[string]any{outcomeKey: outcomeDone, RelayOutputKey: output}}
}

// AnswerRunAgain answers a KindOutcomeUnknown request: run the call again,
// with the arguments that were approved.
func AnswerRunAgain(id string) Answer {
	return Answer{ID: id, Ok: true, Data: map[string]any{outcomeKey: outcomeRerun}}
}

// continueCalls settles the calls a journal recorded of the phase before
// its other calls run: the groups of calls suspended on one request that
// has an answer are resolved (as RunWithAnswer would), unless the answered
// call began since and may not run again; calls still waiting get their
// request in ph.waiting; calls begun too often get an error result.
func (r *run) continueCalls(ctx context.Context, ph *toolPhase) {
	if ph.prior == nil && ph.waiting == nil {
		return
	}
	type group struct {
		req   *Request
		calls []int
	}
	var groups []*group
	byID := map[string]*group{}
	waitingFromStart := ph.waiting
	ph.waiting = make([]*Request, len(ph.calls))
	for i := range ph.calls {
		if ph.results[i] != nil {
			continue
		}
		p := ph.priorOf(i)
		var req *Request
		if p != nil && p.Suspended() != nil {
			req = p.Suspended().Request
		} else if waitingFromStart != nil {
			req = waitingFromStart[i]
		}
		if req == nil {
			if ph.attempt(i) >= journal.MaxAttempts {
				r.finishCall(ph, i, gaveUp(ph.calls[i].Name, ph.attempt(i)), nil)
			}
			continue // runs (again): begun, never suspended, or never begun
		}
		g := byID[req.ID]
		if g == nil {
			g = &group{req: req}
			byID[req.ID] = g
			groups = append(groups, g)
		}
		g.calls = append(g.calls, i)
	}
	for _, g := range groups {
		ans, ok := r.answerFor(g.req.ID)
		if !ok {
			for _, i := range g.calls {
				ph.waiting[i] = g.req
			}
			continue
		}
		i := g.calls[0]
		via := answerVia{req: g.req, from: ans.By, durable: true}
		if g.req.Kind == KindOutcomeUnknown {
			r.settleUnknown(ctx, ph, i, *ans.Answer, via)
			continue
		}
		if p := ph.priorOf(i); ans.Answer.Ok && p != nil && p.StartsAfter(ans.Seq) > 0 {
			if !r.mayRunAgain(ph.calls[i].Name, g.req) {
				u := r.unknownRequest(ph, i, *ans.Answer)
				if err := r.recordSuspend(ctx, ph, i, u); err != nil {
					r.abort(err)
					return
				}
				ph.waiting[i] = u
				continue
			}
			if ph.attempt(i) >= journal.MaxAttempts {
				r.finishCall(ph, i, gaveUp(ph.calls[i].Name, ph.attempt(i)), nil)
				continue
			}
		}
		r.resolve(ctx, ph, g.calls, *ans.Answer, via)
	}
}

// priorOf is what the journal recorded of call i that has no outcome.
func (ph *toolPhase) priorOf(i int) *journal.Call {
	if ph.prior == nil {
		return nil
	}
	return ph.prior[i]
}

// answerFor returns the answer the journal holds for request id.
func (r *run) answerFor(id string) (journal.Placed, bool) {
	if r.jr == nil {
		return journal.Placed{}, false
	}
	r.jr.mu.Lock()
	defer r.jr.mu.Unlock()
	a, ok := r.jr.answers[id]
	return a, ok
}

// mayRunAgain reports whether a begun call of the named tool, answered
// through req, may run again after an interruption: it needs no approval
// (neither its tool nor a rule asked), or it is Idempotent.
func (r *run) mayRunAgain(name string, req *Request) bool {
	t, ok := r.tk.Get(name)
	return !ok || (!t.NeedsApproval && req.Kind != KindApproval) || t.Idempotent
}

func gaveUp(name string, attempts int) ToolResult {
	return ToolResult{Output: fmt.Sprintf("tool %q did not finish: the run was interrupted while it ran, %d times; it is not run again", name, attempts), IsError: true}
}

// unknownRequest is the question about call i of the phase, approved by
// approval: its id is fixed by the call and its attempts, so that two
// continuations of one run ask the same question. Data carries the
// approval itself, so that "run it again" works where the journal that
// recorded it is not at hand (a resume's new state token).
func (r *run) unknownRequest(ph *toolPhase, i int, approval Answer) *Request {
	call := ph.calls[i]
	args, _ := parseArgs(call.Arguments)
	if args == nil {
		args = map[string]any{}
	}
	return &Request{
		ID:     "unk_" + strconv.Itoa(ph.turn) + "_" + call.ID + "_" + strconv.Itoa(ph.attempt(i)),
		Kind:   KindOutcomeUnknown,
		Prompt: fmt.Sprintf("%s %s was running when the run stopped: did it happen?", call.Name, mustJSON(args)),
		Data: map[string]any{"tool": call.Name, "args": args, "callId": call.ID, "approval": approval.ID,
			"answer":   map[string]any{"id": approval.ID, "ok": approval.Ok, "data": approval.Data},
			"attempts": float64(ph.attempt(i)), "choices": []any{outcomeDone, outcomeRerun, "failed"}},
	}
}

// settleUnknown applies a person's answer about call i, whose outcome was
// unknown (via.req): its result as given, the call run again with its
// approval, or an error result saying it was recorded as not done. The
// answer is a decision of the record, made before it takes effect.
func (r *run) settleUnknown(ctx context.Context, ph *toolPhase, i int, ans Answer, via answerVia) {
	req, call := via.req, ph.calls[i]
	name := call.Name
	if e := approval.Answered(*req, ans, via.from); !r.decide(ctx, ph, &call, call.Arguments, &e) {
		return
	}
	switch {
	case !ans.Ok:
		reason := ans.Reason
		if reason == "" {
			reason = "no reason given"
		}
		r.finishCall(ph, i, ToolResult{Output: fmt.Sprintf("tool %q did not complete: the run stopped while it ran, and a person recorded it as not done: %s", name, reason),
			IsError: true, Metadata: map[string]any{recordedKey: true}}, nil)
	case ans.Data[outcomeKey] == outcomeRerun:
		approved, ok := approvalOf(r, req)
		switch {
		case !ok:
			r.finishCall(ph, i, ToolResult{Output: fmt.Sprintf("tool %q was not run again: its approval is not recorded", name), IsError: true}, nil)
			return
		case ph.attempt(i) >= journal.MaxAttempts:
			r.finishCall(ph, i, gaveUp(name, ph.attempt(i)), nil)
			return
		}
		r.resolve(ctx, ph, []int{i}, approved, answerVia{from: via.from, durable: true})
	default:
		out := jsonx.Text(ans.Data[RelayOutputKey])
		if out == "" {
			out = fmt.Sprintf("tool %q completed (recorded by a person: the run stopped while it ran)", name)
		}
		isErr, _ := ans.Data["isError"].(bool)
		r.finishCall(ph, i, ToolResult{Output: out, IsError: isErr, Metadata: map[string]any{recordedKey: true}}, nil)
	}
}

// answerGroup applies answer to the calls of group that suspended on
// pending: settleUnknown for a question about a lost outcome (the call must
// not simply run: the answer says what happened), resolve for the others.
func (r *run) answerGroup(ctx context.Context, ph *toolPhase, group []int, pending *Request, answer Answer) {
	via := answerVia{req: pending, from: approval.FromResume, durable: true}
	if pending.Kind == KindOutcomeUnknown {
		for _, g := range group {
			r.settleUnknown(ctx, ph, g, answer, via)
		}
		return
	}
	r.resolve(ctx, ph, group, answer, via)
}

// approvalOf is the approval an outcome question is about: the journal's,
// or else the one the question carries.
func approvalOf(r *run, req *Request) (Answer, bool) {
	id, _ := req.Data["approval"].(string)
	if a, ok := r.answerFor(id); ok {
		return *a.Answer, true
	}
	m, _ := req.Data["answer"].(map[string]any)
	if ok, _ := m["ok"].(bool); !ok || id == "" {
		return Answer{}, false
	}
	data, _ := m["data"].(map[string]any)
	return Answer{ID: id, Ok: true, Data: data}, true
}

// recordedKey marks a result a person gave for a call whose outcome was
// unknown, not the tool.
const recordedKey = "recorded"
