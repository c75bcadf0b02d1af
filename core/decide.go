package core

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/journal"
)

// The loop's side of approval (core/approval holds the rules, grants and
// record): each decision is recorded before it takes effect.

// grantScope is where the run's grants live: its conversation
// (approval.WithConversation), else the run itself.
func (r *run) grantScope(ctx context.Context) string {
	return cmp.Or(approval.ConversationOf(ctx), r.runID())
}

// verdict reads the toolkit's rules about a call of t.
func (r *run) verdict(t Tool, call *ToolRequest, args map[string]any) approval.Verdict {
	return r.tk.policy.Decide(approval.Call{ID: call.ID, Turn: r.result.Turns - 1, Tool: t.Name,
		Source: string(t.Source), Server: t.Server, Args: args, AlwaysAsk: t.AlwaysAsk})
}

// decide records e, a decision about call (asked: the model's arguments;
// what runs is call's), in the run's journal, then its result and the
// toolkit's policy. A decision the journal holds already (made by an
// earlier life of the run) is not made again; a failure ends the run.
func (r *run) decide(ctx context.Context, ph *toolPhase, call *ToolRequest, asked string, e *approval.Entry) bool {
	e.Run, e.Conversation, e.At = r.runID(), approval.ConversationOf(ctx), approval.Stamp(time.Now())
	e.Call, e.Tool, e.Asked = call.ID, call.Name, rawArgs(cmp.Or(asked, "{}"))
	switch e.Decision {
	case approval.Allowed, approval.Approved, approval.Edited, approval.Happened, approval.Rerun:
		e.Ran = rawArgs(cmp.Or(call.Arguments, "{}"))
	}
	if r.jr != nil {
		err := r.record(ctx, journal.Entry{Kind: journal.KindDecision, Turn: ph.turn, Call: e.Call, Decision: e.AppendJSON(nil)})
		if errors.Is(err, journal.ErrDuplicate) {
			return true
		} else if err != nil {
			r.abort(err)
			return false
		}
	}
	r.noteDecision(ctx, *e, true)
	return true
}

// noteDecision adds e to the run's result and the toolkit's policy.
func (r *run) noteDecision(ctx context.Context, e approval.Entry, report bool) {
	r.mu.Lock()
	r.result.Decisions = append(r.result.Decisions, e)
	r.mu.Unlock()
	r.tk.policy.Note(r.grantScope(ctx), e, report)
}
