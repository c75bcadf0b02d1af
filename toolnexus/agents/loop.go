package agents

import (
	"context"
	"fmt"
	"strings"

	coreagents "github.com/toolnexus/wasm/core/agents"
	tn "github.com/toolnexus/wasm/toolnexus"
)

// Loop is a live execution of an Agent: one conversation over a client
// and toolkit, kept across Run calls and held to the agent's Completion
// gate. Its state is read (Status, Turns), never set.
type Loop struct {
	k    *coreagents.Loop
	opts tn.ClientOptions // a per-call Model builds its client from these
}

// RunOpts is what varies per Run call.
type RunOpts struct {
	// Model replaces the client's model for this call only.
	Model string
}

// Outcome is what a Loop run reports. StoppedBy says why whenever Status
// is not "done".
type Outcome struct {
	Text      string
	Status    string
	StoppedBy string
	Attempts  int
	Turns     int
	Result    tn.RunResult
}

// Loop opens a live execution of a with a client built from opts.
func (a *Agent) Loop(opts tn.ClientOptions, tk *tn.Toolkit) *Loop {
	spec := coreagents.Spec{Does: a.Spec.Does}
	if c := a.Spec.Completion; c != nil {
		spec.Completion = &coreagents.Completion{Verify: verifyToCore(c.Verify), MaxAttempts: c.MaxAttempts}
	}
	k := coreagents.New(a.Name, spec).Loop(clientToCore(tn.CreateClient(opts)), toolkitToCore(tk))
	return &Loop{k: k, opts: opts}
}

// Status is "idle", "running", or the last run's status.
func (l *Loop) Status() string { return l.k.Status() }

// Turns is the model calls the loop has made.
func (l *Loop) Turns() int { return l.k.Turns() }

// Run sends prompt as the conversation's next user turn.
func (l *Loop) Run(ctx context.Context, prompt string, o RunOpts) (Outcome, error) {
	var ko coreagents.RunOpts
	if o.Model != "" {
		opts := l.opts
		opts.Model = o.Model
		ko.Client = clientToCore(tn.CreateClient(opts))
	}
	out, err := l.k.Run(ctx, prompt, ko)
	return Outcome{
		Text: out.Text, Status: out.Status, StoppedBy: out.StoppedBy,
		Attempts: out.Attempts, Turns: out.Turns, Result: runResultFromCore(out.Result),
	}, err
}

// AllTodosDone is a Completion.Verify: the run passes when the last
// todowrite call left every item completed (or when there is no plan).
func AllTodosDone(r tn.RunResult) (bool, string) {
	for i := len(r.ToolCalls) - 1; i >= 0; i-- {
		call := r.ToolCalls[i]
		if call.Name != "todowrite" {
			continue
		}
		items, _ := call.Metadata["todos"].([]any)
		var open []string
		for _, it := range items {
			m, _ := it.(map[string]any)
			if done, _ := m["completed"].(bool); !done {
				text, _ := m["text"].(string)
				open = append(open, text)
			}
		}
		if len(open) > 0 {
			return false, fmt.Sprintf("%d item(s) still open: %s", len(open), strings.Join(open, "; "))
		}
		return true, ""
	}
	return true, ""
}
