package core

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
)

// ErrCannotResume is what errors.Is finds when RunWithAnswer refuses an
// answer: its id does not echo the request, no call waits on the request
// (answered already, or a forged request), or the transcript has no halted
// turn. Nothing ran.
var ErrCannotResume = errors.New("core: cannot resume")

// RunWithAnswer resumes a run that halted with Status "pending". history is
// the halted run's Messages, pending its Pending request, and answer the
// resolution, whose ID must echo pending.ID.
//
// The placeholder result of every call that waited on the request is
// replaced: a relay call by the host's output, an ordinary tool by running it
// once more with ToolContext.Answer set, a declined call by an error result
// carrying the reason. Calls of the halted turn that had not run yet run now,
// so every call gets exactly one result. No user turn is added; the loop then
// continues with the model.
//
//	halted, _ := client.Run(ctx, "refund the customer", tk) // halted.Status == "pending"
//	res, err := client.RunWithAnswer(ctx, tk, halted.Messages, *halted.Pending,
//		AnswerDeclined(halted.Pending.ID, "amount exceeds refund policy"))
func (c *Client) RunWithAnswer(ctx context.Context, tk *Toolkit, history []any, pending Request, answer Answer) (RunResult, error) {
	ctx = orBackground(ctx)
	r, ph, group, err := c.prepareResume(tk, history, pending)
	if err != nil {
		return RunResult{Status: StatusIncomplete, Limit: "error", Messages: history, Pending: &pending}, err
	}
	if answer.ID != pending.ID {
		return RunResult{Status: StatusIncomplete, Limit: "error", Messages: history, Pending: &pending},
			fmt.Errorf("%w: answer id %q does not echo the pending request id %q", ErrCannotResume, answer.ID, pending.ID)
	}
	r.answerGroup(ctx, ph, group, &pending, answer)
	return r.loop(ctx, ph)
}

// StreamWithAnswer is RunWithAnswer reporting progress as Stream does. The
// answer is checked before the channel is returned, so a refused answer is
// the error here and nothing runs.
func (c *Client) StreamWithAnswer(ctx context.Context, tk *Toolkit, history []any, pending Request, answer Answer) (<-chan StreamEvent, error) {
	ctx = orBackground(ctx)
	r, ph, group, err := c.prepareResume(tk, history, pending)
	if err != nil {
		return nil, err
	}
	if answer.ID != pending.ID {
		return nil, fmt.Errorf("%w: answer id %q does not echo the pending request id %q", ErrCannotResume, answer.ID, pending.ID)
	}
	return r.startStream(ctx, func() (RunResult, error) {
		r.answerGroup(ctx, ph, group, &pending, answer)
		return r.loop(ctx, ph)
	}), nil
}

// prepareResume finds the halted turn of history and the calls that wait on
// pending, and cuts the transcript back to that turn. Nothing runs.
func (c *Client) prepareResume(tk *Toolkit, history []any, pending Request) (*run, *toolPhase, []int, error) {
	if pending.ID == "" {
		return nil, nil, nil, fmt.Errorf("%w: the pending request has no id", ErrCannotResume)
	}
	r, err := c.newRun(tk, history)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %w", ErrCannotResume, err)
	}
	idx, calls, results := c.wire.HaltedTurn(r.tr.msgs)
	if idx < 0 {
		return nil, nil, nil, fmt.Errorf("%w: the transcript does not end in a turn with tool calls", ErrCannotResume)
	}
	ph := r.newToolPhase(calls)
	var group []int
	for i, call := range calls {
		res, ok := results[call.ID]
		switch {
		case ok && strings.HasPrefix(res.Content, pendingPlaceholder(pending.ID)):
			group = append(group, i)
		case ok && !isPlaceholder(res.Content):
			res := res
			ph.results[i] = &res
		}
	}
	if len(group) == 0 {
		return nil, nil, nil, fmt.Errorf("%w: no tool call in the transcript waits on request %q (was it answered already?)", ErrCannotResume, pending.ID)
	}
	r.tr.truncate(idx + 1)
	return r, ph, group, nil
}
