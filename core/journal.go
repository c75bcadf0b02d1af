package core

import (
	"context"
	"encoding/json"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"
	"time"

	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// A journaled run records each step before it takes effect (core/journal
// says what and why); this file is where the loop records, continue.go
// where Continue reads a journal back.

// journaled is a run's journal and what the run needs of it.
type journaled struct {
	j   journal.Journal
	run string
	// answers are the answers recorded when the run was continued, by
	// request id, with their position (continue.go).
	answers map[string]journal.Placed
	// modelAttempts counts the attempts the journal holds of the model
	// call the run makes first: it was interrupted that often.
	modelAttempts int
	mu            sync.Mutex // one Record at a time; guards err
	err           error      // the first failure: the run cannot go on
}

// ErrJournal is what errors.Is finds when a journaled run stopped because
// its journal failed (storage full or gone, or a step recorded already by
// another continuation of the same run): nothing unrecorded ran.
var ErrJournal = errors.New("core: journal")

// record appends e to the run's journal; a failure is the run's from then
// on. Without a journal it does nothing.
func (r *run) record(ctx context.Context, e journal.Entry) error {
	jr := r.jr
	if jr == nil {
		return nil
	}
	jr.mu.Lock()
	defer jr.mu.Unlock()
	if jr.err != nil {
		return jr.err
	}
	if e.At == 0 {
		e.At = time.Now().UnixMilli()
	}
	if err := jr.j.Record(ctx, e); err != nil {
		err = fmt.Errorf("%w: %s: %w", ErrJournal, e.Kind, err)
		if !errors.Is(err, journal.ErrDuplicate) {
			jr.err = err
		}
		return err
	}
	return nil
}

// runID is the run's id, the first half of its idempotency keys: the
// journal's, or one made for a run without a journal.
func (r *run) runID() string {
	if r.jr != nil && r.jr.run != "" {
		return r.jr.run
	}
	// A turn's calls run concurrently: the first makes the id.
	r.mu.Lock()
	if r.id == "" {
		r.id = newID("run_")
	}
	id := r.id
	r.mu.Unlock()
	return id
}

// recordModel records that model call turn begins, refusing a call the
// journal says was begun MaxAttempts times already.
func (r *run) recordModel(ctx context.Context, turn int) error {
	if r.jr == nil {
		return nil
	}
	attempt := r.jr.modelAttempts + 1
	r.jr.modelAttempts = 0
	if attempt > journal.MaxAttempts {
		return fmt.Errorf("core: the model call of turn %d was interrupted %d times; giving up", turn, journal.MaxAttempts)
	}
	return r.record(ctx, journal.Entry{Kind: journal.KindModel, Turn: turn, Attempt: attempt})
}

// recordTurn records the model's reply, msg as the transcript holds it,
// before any of its calls runs.
func (r *run) recordTurn(ctx context.Context, resp LLMResponse, msg json.RawMessage) error {
	if r.jr == nil {
		return nil
	}
	u := resp.Usage
	calls := resp.ToolCalls
	if calls == nil {
		calls = []ToolRequest{}
	}
	return r.record(ctx, journal.Entry{Kind: journal.KindTurn, Turn: r.result.Turns, Message: msg, Text: resp.Text,
		Calls: calls, Usage: &u, Model: resp.Model})
}

// recordCall records that call i of the phase begins, with the arguments
// it runs with (asked: the model's, when an approval edited them).
func (r *run) recordCall(ctx context.Context, ph *toolPhase, i int, call *ToolRequest, asked string, key string) error {
	if r.jr == nil {
		return nil
	}
	e := journal.Entry{Kind: journal.KindCall, Turn: ph.turn, Call: call.ID, Name: call.Name,
		Args: rawArgs(call.Arguments), Attempt: ph.attempt(i) + 1, IdempotencyKey: key}
	if asked != call.Arguments {
		e.Asked = rawArgs(asked)
	}
	ph.mu.Lock()
	ph.begun(i)
	ph.mu.Unlock()
	return r.record(ctx, e)
}

// recordOutcome records call i's result, once it is final. A call cut off
// by the run's own end (cancelled, out of time) has no outcome: the tool
// did not say, and a continuation decides about it.
func (r *run) recordOutcome(ph *toolPhase, i int, rec *ToolCall, recorded bool) {
	if r.jr == nil {
		return
	}
	ctx := r.ctx
	if ctx == nil || ctx.Err() != nil {
		return
	}
	e := journal.Entry{Kind: journal.KindOutcome, Turn: ph.turn, Call: rec.ID, Name: rec.Name, Args: rec.RawArgs,
		Asked: rec.OriginalArgs, Output: rec.Output, IsError: rec.IsError, Declined: rec.Declined, Recorded: recorded}
	if len(rec.Metadata) > 0 {
		if b, err := jsonx.Marshal(rec.Metadata); err == nil {
			e.Metadata = b
		}
	}
	if err := r.record(ctx, e); err != nil {
		r.abort(err)
	}
}

// recordSuspend records that call i waits on req. The same suspension
// recorded before (a continuation asking again) is not an error.
func (r *run) recordSuspend(ctx context.Context, ph *toolPhase, i int, req *Request) error {
	err := r.record(ctx, journal.Entry{Kind: journal.KindSuspend, Turn: ph.turn, Call: ph.calls[i].ID, Request: req})
	if errors.Is(err, journal.ErrDuplicate) {
		return nil
	}
	return err
}

// recordAnswer records ans before it takes effect.
func (r *run) recordAnswer(ctx context.Context, ans Answer) error {
	if r.jr == nil {
		return nil
	}
	e := journal.AnswerEntry(ans, "waitFor")
	if err := r.record(ctx, e); err != nil {
		return err
	}
	r.jr.mu.Lock()
	if r.jr.answers == nil {
		r.jr.answers = map[string]journal.Placed{}
	}
	if _, ok := r.jr.answers[ans.ID]; !ok {
		r.jr.answers[ans.ID] = journal.Placed{Entry: &e, Seq: -1}
	}
	r.jr.mu.Unlock()
	return nil
}

// recordEnd records how the run ended. A halted run has not ended, nor has
// one whose caller stopped it (ctx done): a continuation goes on from its
// last step.
func (r *run) recordEnd(ctx context.Context, res RunResult, err error) {
	if r.jr == nil || res.Status == StatusPending || ctx.Err() != nil || errors.Is(err, ErrJournal) {
		return
	}
	e := journal.Entry{Kind: journal.KindEnd, Status: res.Status, Limit: res.Limit, Text: res.Text}
	if err != nil {
		e.Status, e.Error = "error", err.Error()
	}
	r.record(ctx, e)
}
