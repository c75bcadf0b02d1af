package agents

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core"
)

// Loop is a live execution of an Agent over a client and toolkit the caller
// built: one conversation that keeps its transcript across Run calls and
// applies the Agent's Completion gate. Its verbs are Run and Resume; its
// state is read (Status, Turns), never set. It is not safe for concurrent
// use.
type Loop struct {
	agent   *Agent
	client  *core.Client
	toolkit *core.Toolkit
	history []any
	pending *core.Request
	turns   int
	status  string
}

// RunOpts is what varies per Run call.
type RunOpts struct {
	// Client, when set, makes this call (and its completion retries) with
	// another client over the same conversation: another model for one
	// request, say. Nil: the client the Loop was opened with.
	Client *core.Client
}

// Outcome is what a Loop run reports. Status is "done", "incomplete",
// "pending" or "error"; StoppedBy says why whenever it is not "done".
type Outcome struct {
	Text      string
	Status    string
	StoppedBy string
	Attempts  int
	Turns     int
	Result    core.RunResult
}

// Loop opens a live execution of a against c and tk.
func (a *Agent) Loop(c *core.Client, tk *core.Toolkit) *Loop {
	return &Loop{agent: a, client: c, toolkit: tk, status: "idle"}
}

// Status is "idle", "running", or the last run's status.
func (l *Loop) Status() string { return l.status }

// Turns is the model calls the loop has made.
func (l *Loop) Turns() int { return l.turns }

// Run sends prompt as the next user turn of the conversation.
func (l *Loop) Run(ctx context.Context, prompt string, o RunOpts) (Outcome, error) {
	if l.pending != nil {
		return Outcome{Status: TaskStatusError, StoppedBy: "pending"}, errors.New("agents: the loop waits on an answer; call Resume")
	}
	if c := l.agent.Spec.Completion; c != nil && (c.MaxAttempts < 1 || c.Verify == nil) {
		return Outcome{Status: TaskStatusError, StoppedBy: "completion"}, errors.New("agents: Completion needs Verify and MaxAttempts >= 1")
	}
	c := l.client
	if o.Client != nil {
		c = o.Client
	}
	l.status = "running"
	r, err := c.RunWithHistory(ctx, prompt, l.toolkit, l.history)
	return l.settle(ctx, c, r, err)
}

// Resume continues a loop that stopped with Status "pending".
func (l *Loop) Resume(ctx context.Context, answer core.Answer) (Outcome, error) {
	if l.pending == nil {
		return Outcome{Status: TaskStatusError}, ErrNotSuspended
	}
	l.status = "running"
	r, err := l.client.RunWithAnswer(ctx, l.toolkit, l.history, *l.pending, answer)
	if err != nil && errors.Is(err, core.ErrCannotResume) {
		l.status = TaskStatusPending
		return Outcome{Status: TaskStatusPending, StoppedBy: err.Error()}, err
	}
	l.pending = nil
	return l.settle(ctx, l.client, r, err)
}

// settle applies the completion gate and records the run.
func (l *Loop) settle(ctx context.Context, c *core.Client, r core.RunResult, err error) (Outcome, error) {
	r, attempts, err := verifyCompletion(ctx, c, l.toolkit, l.agent.Spec.Completion, r, err)
	l.turns += r.Turns
	if r.Messages != nil {
		l.history = r.Messages
	}
	out := Outcome{Text: r.Text, Status: r.Status, Turns: l.turns, Result: r, Attempts: attempts}
	switch {
	case err != nil:
		out.Status, out.StoppedBy = TaskStatusError, err.Error()
	case r.Status == core.StatusPending:
		l.pending = r.Pending
		out.StoppedBy = "pending: " + r.Pending.Kind
	case r.Status == core.StatusIncomplete && r.Limit == LimitCompletion:
		out.StoppedBy = r.Text // the failed check's own reason
	case r.Status == core.StatusIncomplete:
		out.StoppedBy = fmt.Sprintf("limit %s", r.Limit)
	}
	l.status = out.Status
	if out.Status == TaskStatusDone {
		l.status = "idle"
	}
	return out, err
}
