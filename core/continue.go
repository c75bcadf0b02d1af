package core

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// ErrNoRun is what errors.Is finds when Continue is given a journal that
// holds no run: record a journal.Start (or journal.Resume) entry first.
var ErrNoRun = errors.New("core: the journal holds no run")

// Continue runs the run that journal j records, from its last recorded
// step to its end or its next halt, recording each step as it goes
// (core/journal says what and in which order). A new run is one whose
// journal holds only its start:
//
//	j := journal.NewMemory() // or journal.OpenFile(path) natively
//	j.Record(ctx, journal.Start("run-1", "refund order 42", nil, nil))
//	res, err := client.Continue(ctx, tk, j) // halted: res.Status == "pending"
//	j.Record(ctx, journal.AnswerEntry(core.Answer{ID: res.Pending.ID, Ok: true}, "api"))
//	res, err = client.Continue(ctx, tk, j) // the tool runs once; the model answers
//
// After an interruption anywhere (the process killed, ctx cancelled)
// Continue goes on from the journal: a recorded reply or outcome is used
// as recorded, a model call in flight is made again, a call that needs no
// approval (or whose tool is Idempotent) runs again with the same
// ToolContext.IdempotencyKey, and an approved call of any other tool that
// began without a recorded outcome is asked about: the run waits on (or,
// without WaitFor, halts with) a Request of kind KindOutcomeUnknown. An
// ended run returns its recorded end and runs nothing.
func (c *Client) Continue(ctx context.Context, tk *Toolkit, j journal.Journal) (RunResult, error) {
	ctx = orBackground(ctx)
	r, ph, ended, err := c.restore(ctx, tk, j)
	if err != nil {
		return RunResult{Status: StatusIncomplete, Limit: "error", ToolCalls: []ToolCall{}}, err
	}
	if ended != nil {
		return ended.res, ended.err
	}
	return r.loop(ctx, ph)
}

// StreamContinue is Continue reporting progress as Stream does: only the
// steps it takes, not the ones the journal holds already. A journal that
// does not read is the error here, and nothing runs.
func (c *Client) StreamContinue(ctx context.Context, tk *Toolkit, j journal.Journal) (<-chan StreamEvent, error) {
	ctx = orBackground(ctx)
	r, ph, ended, err := c.restore(ctx, tk, j)
	if err != nil {
		return nil, err
	}
	return r.startStream(ctx, func() (RunResult, error) {
		if ended != nil {
			return ended.res, ended.err
		}
		return r.loop(ctx, ph)
	}), nil
}

// endedRun is the recorded end of a run that Continue finds ended.
type endedRun struct {
	res RunResult
	err error
}

// restore rebuilds a run from its journal: the transcript, turns, usage
// and records of every recorded step, and the tool phase an interruption
// left open (nil: the next step is a model call).
func (c *Client) restore(ctx context.Context, tk *Toolkit, j journal.Journal) (*run, *toolPhase, *endedRun, error) {
	if j == nil {
		return nil, nil, nil, fmt.Errorf("%w: no journal", ErrNoRun)
	}
	entries, err := j.Load(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: load: %w", ErrJournal, err)
	}
	st, err := journal.Replay(entries)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %w", ErrJournal, err)
	}
	if st.Start == nil {
		return nil, nil, nil, fmt.Errorf("%w: record a journal.Start entry first", ErrNoRun)
	}
	history := make([]any, len(st.Start.History))
	for i, m := range st.Start.History {
		history[i] = m
	}
	var r *run
	var ph *toolPhase
	if pending := st.Start.Request; pending != nil {
		var group []int
		if r, ph, group, err = c.prepareResume(tk, history, *pending); err != nil {
			return nil, nil, nil, err
		}
		ph.turn = 0
		ph.waiting = make([]*Request, len(ph.calls))
		for _, g := range group {
			ph.waiting[g] = pending
		}
		if err := ph.applyJournal(st.Halted); err != nil {
			return nil, nil, nil, err
		}
	} else {
		if r, err = c.newRun(tk, history); err != nil {
			return nil, nil, nil, err
		}
		r.appendMessage(c.wire.UserMessage(st.Start.Prompt))
	}
	r.jr = &journaled{j: j, run: st.Start.Run, answers: st.Answers}
	for _, d := range st.Decisions {
		if e, err := approval.DecodeEntry(d.Decision); err == nil {
			r.noteDecision(ctx, e, false) // grants given and revoked hold again
		}
	}
	for _, t := range st.Turns {
		if ph != nil {
			if !ph.complete() {
				return nil, nil, nil, fmt.Errorf("%w: turn %d began before the calls of turn %d finished", ErrJournal, t.N, ph.turn)
			}
			r.closePhase(ph)
			ph = nil
		}
		if t.Reply == nil { // the model call was in flight: made again
			r.jr.modelAttempts = t.Attempts
			break
		}
		r.result.Turns = t.N
		r.appendMessage(t.Reply.Message)
		r.result.Text = t.Reply.Text
		if t.Reply.Usage != nil {
			wire.AddUsage(&r.result.Usage, *t.Reply.Usage)
		}
		if t.Reply.Model != "" {
			r.result.ProviderModel = t.Reply.Model
		}
		if len(t.Reply.Calls) > 0 {
			ph = r.newToolPhase(append([]ToolRequest(nil), t.Reply.Calls...))
			if err := ph.applyJournal(t); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	if ph != nil && ph.complete() {
		r.closePhase(ph)
		ph = nil
	}
	if e := st.End; e != nil {
		if ph != nil {
			r.closePhase(ph) // cut off by the end: its open calls are marked not run
		}
		out := &endedRun{res: r.finish(e.Status, e.Limit)}
		out.res.Text = e.Text
		if e.Status == "error" {
			out.res.Status, out.res.Limit = StatusIncomplete, "error"
			out.err = errors.New(e.Error)
		}
		return r, nil, out, nil
	}
	if last := st.Last(); ph == nil && last != nil && last.Reply != nil && len(last.Reply.Calls) == 0 {
		// The model's last reply asked for nothing: the run was done when
		// it was interrupted, before its end was recorded.
		res := r.finish(StatusDone, "")
		r.recordEnd(ctx, res, nil)
		return r, nil, &endedRun{res: res}, nil
	}
	return r, ph, nil, nil
}

// applyJournal puts what journal turn t recorded of the phase's calls in
// place: a call's recorded outcome is its result, and what else is known
// of a call that has none (begun, suspended) is its prior.
func (ph *toolPhase) applyJournal(t *journal.Turn) error {
	if t == nil {
		return nil
	}
	ph.prior = make([]*journal.Call, len(ph.calls))
	ph.attempts = make([]int, len(ph.calls))
	for _, c := range t.Calls {
		i := ph.index(c.ID)
		if i < 0 {
			return fmt.Errorf("%w: turn %d holds no tool call %q", ErrJournal, ph.turn, c.ID)
		}
		ph.attempts[i] = len(c.Starts)
		o := c.Outcome
		if o == nil {
			ph.prior[i] = c
			continue
		}
		if len(o.Asked) > 0 {
			call := ph.calls[i]
			call.Arguments = string(o.Args)
			ph.setAsked(i, call, string(o.Asked))
		}
		ph.results[i] = &toolOutcome{ID: c.ID, Content: o.Output, IsError: o.IsError}
		rec := ToolCall{ID: c.ID, Name: o.Name, RawArgs: o.Args, OriginalArgs: o.Asked, Output: o.Output, IsError: o.IsError,
			Edited: len(o.Asked) > 0, Declined: o.Declined}
		rec.Args, _ = parseArgs(string(o.Args))
		if len(o.Metadata) > 0 {
			rec.Metadata, _ = jsonx.DecodeObject(o.Metadata)
		}
		ph.records[i] = &rec
	}
	return nil
}

func (ph *toolPhase) index(id string) int {
	for i, c := range ph.calls {
		if c.ID == id {
			return i
		}
	}
	return -1
}

func (ph *toolPhase) complete() bool {
	for _, o := range ph.results {
		if o == nil {
			return false
		}
	}
	return true
}

// attempt is how often call i was begun (by earlier continuations too).
func (ph *toolPhase) attempt(i int) int {
	if ph.attempts == nil {
		return 0
	}
	return ph.attempts[i]
}

// begun counts an attempt of call i; ph.mu is held.
func (ph *toolPhase) begun(i int) {
	if ph.attempts == nil {
		ph.attempts = make([]int, len(ph.calls))
	}
	ph.attempts[i]++
}
