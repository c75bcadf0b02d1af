//go:build js && wasm

package jsbridge

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Journaled runs (issue 31): a run whose every step is recorded in a JS
// journal (journal.go) before it takes effect, so that a run cut off
// anywhere — a tab killed mid-run — is continued from that journal by
// core's Client.Continue, without repeating a recorded step and without
// running an approved call twice:
//
//	c.runJournal(tk, journal, signal?, onEvent?, prompt, historyJSON?, conversation?)  Promise<string>  RunResult JSON
//	c.continueJournal(tk, journal, signal?, onEvent?, answerJSON?, conversation?)     Promise<string>  RunResult JSON
//
// runJournal records the run's start (journal.Start) when the journal is
// empty and runs it; a journal that holds a run already is continued
// instead, so a retried start never starts twice. continueJournal goes on
// with the run the journal holds, recording answerJSON first (the answer
// to the request a run without waitFor halted on). With onEvent each call
// streams as c.stream does (only the steps it takes).
//
// A waitFor asked during a journaled run may resolve {later: true} instead
// of an Answer: the run then halts with the request kept (status
// "pending") and nothing recorded for it — continueJournal asks again.
// The dialog does so when a person leaves a question about a lost
// outcome for later (Escape), which must never count as an answer.

// journalMethods adds the journaled-run methods to a client handle.
func journalMethods(set func(string, js.Func), c *core.Client) {
	set("runJournal", asyncMethod(func(args []js.Value) (any, error) { return journaled(c, args, true) }))
	set("continueJournal", asyncMethod(func(args []js.Value) (any, error) { return journaled(c, args, false) }))
}

// journaled is runJournal (start) and continueJournal: the run's start or
// the answer recorded, then the run. Both begin (tk, journal, signal?,
// onEvent?); runJournal adds (prompt, historyJSON?), continueJournal
// (answerJSON?).
func journaled(c *core.Client, args []js.Value, start bool) (any, error) {
	name := "continue"
	if start {
		name = "run"
	}
	tk, err := toolkitOf(argAt(args, 0))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	j, err := journalFromJS(argAt(args, 1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ctx, h, stop := haltable(argAt(args, 2))
	defer stop()
	conv := 5 // the conversation its grants live in: the argument after the rest
	if start {
		conv = 6
	}
	ctx = withConversation(ctx, argAt(args, conv))
	if start {
		err = startRun(ctx, j, argAt(args, 4), argAt(args, 5))
	} else {
		err = recordAnswer(ctx, j, argAt(args, 4))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return continueRun(ctx, h, c, tk, j, argAt(args, 3))
}

// recordAnswer records an answer given as JSON text (none: nothing to
// record) before the run goes on. A duplicate is a retry of the same
// continue, or an answer given elsewhere first: the first one recorded
// stands, and the run goes on with it.
func recordAnswer(ctx context.Context, j *jsJournal, v js.Value) error {
	if v.Type() != js.TypeString || v.String() == "" {
		return nil
	}
	var ans core.Answer
	if err := ans.UnmarshalJSON([]byte(v.String())); err != nil {
		return fmt.Errorf("answer is not an Answer: %w", err)
	}
	if ans.ID == "" {
		return errors.New("the answer needs the id of the request it answers")
	}
	if err := j.Record(ctx, journal.AnswerEntry(ans, "in page")); err != nil && !errors.Is(err, journal.ErrDuplicate) {
		return err
	}
	return nil
}

// startRun records the run's start when the journal holds nothing yet, with
// the history given as JSON text. The entries read are handed to the
// Continue that follows (jsJournal.first), which then needs no second load.
func startRun(ctx context.Context, j *jsJournal, prompt, historyJSON js.Value) error {
	if prompt.Type() != js.TypeString {
		return errors.New("prompt must be a string")
	}
	history, err := messagesFromJSON(historyJSON, "history")
	if err != nil {
		return err
	}
	entries, err := j.Load(ctx)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		j.first = entries // a run is there already: continued, not started again
		return nil
	}
	// The journal keeps each message as the transcript's JSON object.
	msgs := make([]json.RawMessage, len(history))
	for i, m := range history {
		b, _ := m.(jsonx.Checked)
		if len(b) == 0 || b[0] != '{' {
			return fmt.Errorf("history[%d] is not a message object", i)
		}
		msgs[i] = json.RawMessage(b)
	}
	start := journal.Start(tool.NewID("run_"), prompt.String(), msgs, nil)
	start.At = time.Now().UnixMilli()
	switch err := j.Record(ctx, start); {
	case err == nil:
		j.first = []journal.Entry{start}
	case errors.Is(err, journal.ErrDuplicate):
		// Another start won the race (a second tab): continue its run.
	default:
		return err
	}
	return nil
}

// continueRun runs the journal's run to its end or next halt, streaming to
// onEvent when it is a function.
func continueRun(ctx context.Context, h *halter, c *core.Client, tk *core.Toolkit, j *jsJournal, onEvent js.Value) (any, error) {
	var res core.RunResult
	var err error
	if isFunc(onEvent) {
		var events <-chan core.StreamEvent
		if events, err = c.StreamContinue(ctx, tk, j); err != nil {
			return nil, err
		}
		res, err = drainEvents(ctx, events, onEvent)
	} else {
		res, err = c.Continue(ctx, tk, j)
	}
	if h.later.Load() && res.Status == core.StatusPending && res.Pending != nil && errors.Is(err, core.ErrWaitCancelled) {
		err = nil // left for later: a halt like one without waitFor, not a failure
	}
	return encodeResult(res, err, true)
}

// halter lets a waitFor halt the run it answers for ({later: true}): the
// run's context is cancelled, and the run ends halted on the request.
type halter struct {
	cancel context.CancelFunc
	later  atomic.Bool
}

type halterKey struct{}

// halting is a context that carries its run's halter: what
// context.WithValue does, without the reflection WithValue checks its key
// with (internal/reflectlite: 25 kB of the browser build).
type halting struct {
	context.Context
	h *halter
}

func (c *halting) Value(key any) any {
	if _, ok := key.(halterKey); ok {
		return c.h
	}
	return c.Context.Value(key)
}

// haltable is contextFor with a halter in the context.
func haltable(signal js.Value) (context.Context, *halter, func()) {
	parent, stop := contextFor(signal)
	ctx, cancel := context.WithCancel(parent)
	h := &halter{cancel: cancel}
	return &halting{ctx, h}, h, func() { cancel(); stop() }
}

// haltLater halts the run of ctx, if it can be halted; it reports whether
// it could.
func haltLater(ctx context.Context) bool {
	h, _ := ctx.Value(halterKey{}).(*halter)
	if h == nil {
		return false
	}
	h.later.Store(true)
	h.cancel()
	return true
}
