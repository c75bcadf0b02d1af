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

	"github.com/tidwall/gjson"
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
//	c.runJournal(prompt, tk, historyJSON?, signal?, journal, onEvent?)   Promise<string>  RunResult JSON
//	c.continueJournal(tk, journal, answerJSON?, signal?, onEvent?)      Promise<string>  RunResult JSON
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
	set("runJournal", asyncMethod(func(args []js.Value) (any, error) {
		prompt, tk, _, err := runArgs(args[:min(len(args), 2)])
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		history, err := rawHistory(argAt(args, 2))
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		j, err := journalFromJS(argAt(args, 4))
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		onEvent := argAt(args, 5)
		ctx, h, stop := haltable(argAt(args, 3))
		defer stop()
		if err := startRun(ctx, j, prompt, history); err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		return continueRun(ctx, h, c, tk, j, onEvent)
	}))
	set("continueJournal", asyncMethod(func(args []js.Value) (any, error) {
		tk, err := toolkitOf(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("continue: %w", err)
		}
		j, err := journalFromJS(argAt(args, 1))
		if err != nil {
			return nil, fmt.Errorf("continue: %w", err)
		}
		ctx, h, stop := haltable(argAt(args, 3))
		defer stop()
		if a := argAt(args, 2); a.Type() == js.TypeString && a.String() != "" {
			var ans core.Answer
			if err := ans.UnmarshalJSON([]byte(a.String())); err != nil {
				return nil, fmt.Errorf("continue: answer is not an Answer: %w", err)
			}
			if ans.ID == "" {
				return nil, errors.New("continue: the answer needs the id of the request it answers")
			}
			// Recorded before it takes effect. A duplicate is a retry of the
			// same continue, or an answer given elsewhere first: the first
			// one recorded stands, and the run goes on with it.
			e := journal.AnswerEntry(ans, "in page")
			if err := j.Record(ctx, e); err != nil && !errors.Is(err, journal.ErrDuplicate) {
				return nil, fmt.Errorf("continue: %w", err)
			}
		}
		return continueRun(ctx, h, c, tk, j, argAt(args, 4))
	}))
}

// startRun records the run's start when the journal holds nothing yet. The
// entries read are handed to the Continue that follows (jsJournal.first),
// which then needs no second load.
func startRun(ctx context.Context, j *jsJournal, prompt string, history []json.RawMessage) error {
	entries, err := j.Load(ctx)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		j.first = entries // a run is there already: continued, not started again
		return nil
	}
	start := journal.Start(tool.NewID("run_"), prompt, history, nil)
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

// rawHistory reads a history given as JSON text into the start entry's
// messages (each an object, kept as sent).
func rawHistory(v js.Value) ([]json.RawMessage, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if v.Type() != js.TypeString {
		return nil, errors.New("history must be JSON text")
	}
	b := stringBytes(v)
	if len(b) == 0 {
		return nil, nil
	}
	if err := jsonx.Check(b); err != nil {
		return nil, fmt.Errorf("history is not a JSON array of at most %d levels", jsonx.MaxDepth)
	}
	doc := gjson.ParseBytes(b)
	if !doc.IsArray() {
		return nil, errors.New("history is not a JSON array")
	}
	var out []json.RawMessage
	var bad error
	doc.ForEach(func(_, m gjson.Result) bool {
		if !m.IsObject() {
			bad = fmt.Errorf("history[%d] is not a message object", len(out))
			return false
		}
		out = append(out, json.RawMessage(m.Raw))
		return true
	})
	return out, bad
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

func (c halting) Value(key any) any {
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
	return halting{ctx, h}, h, func() { cancel(); stop() }
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
