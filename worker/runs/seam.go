package runs

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"fmt"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/worker"
)

// What another product of the Worker does with durable runs: worker/a2aserve
// serves each A2A task as one. It starts a run as POST /v1/runs does
// (Start) and answers the run's pending request as an approval link does
// (Answer), so a task gets the executor, the journal, the events, the link
// and the single-use answer of every durable run; it reads the run through
// the worker.RunStore.

// ErrRunStore is what errors.Is finds when the run store failed or is not
// bound: nothing was recorded.
var ErrRunStore = errors.New("runs: the run store")

// Begin is a run to start: POST /v1/runs's body (Prompt after History, or
// a team's Agent), the Worker's origin its approval links name, and the
// starting product's own data about the run.
type Begin struct {
	Origin           string
	Prompt           string
	History          []json.RawMessage
	Agent, Workspace string
	// Product is kept with the run, as the "product" of its
	// RunRecord.Meta (JSON; nil for none).
	Product json.RawMessage
}

// Start records run b's start and returns its id; the run's executor runs
// it. The caller checks b as POST /v1/runs does (a prompt, no History
// with an Agent).
func Start(h *worker.Handler, ctx context.Context, b Begin) (string, error) {
	opts := h.Options()
	var store worker.RunStore
	if opts.Runs != nil {
		store = opts.Runs()
	}
	if store == nil {
		return "", fmt.Errorf("%w: no %s binding", ErrRunStore, worker.RunsBinding)
	}
	id, err := newRunID()
	if err != nil {
		return "", err
	}
	meta, err := worker.MarshalJSON(runMeta{Origin: b.Origin, Agent: b.Agent, Workspace: b.Workspace, Product: b.Product})
	if err != nil {
		return "", fmt.Errorf("run meta: %w", err)
	}
	start := journal.Start(id, b.Prompt, b.History, meta)
	start.At = opts.Now().UnixMilli()
	entry, err := start.AppendJSON(nil)
	if err != nil {
		return "", err
	}
	ttl := approvalTTL(opts.Getenv)
	public := []byte(`{"status":"running","step":{"kind":"starting"},"progressAt":"` + opts.Now().UTC().Format(time.RFC3339) + `"}`)
	if _, err := store.Start(context.WithoutCancel(ctx), id, worker.RunStart{Entry: entry, Public: public, Meta: meta, Until: opts.Now().Add(2*ttl + 24*time.Hour)}); err != nil {
		return "", fmt.Errorf("%w: %w", ErrRunStore, err)
	}
	return id, nil
}

// Decision is an answer to a run's pending request, in POST /approve's
// terms: Ok approves (with Args, an edit) or declines (with Reason); for a
// question about a call whose outcome was lost, Outcome "happened" (with
// Output) or "rerun", or not Ok: it did not happen.
type Decision struct {
	Ok              bool
	Reason          string
	Args            map[string]any
	Outcome, Output string
}

// Answered is how Answer went: Won when this answer is the one recorded;
// Decision is the decision that stands (JSON, as POST /approve's 200 and
// 409 carry it), nil when the run waits on no such request and none is
// recorded for it.
type Answered struct {
	Won      bool
	Decision []byte
}

// RefusedAnswer is an answer that does not fit its request: nothing was
// recorded. Code is the one POST /approve answers 400 with (invalid_args,
// invalid_field).
type RefusedAnswer struct{ worker.APIError }

func (e *RefusedAnswer) Error() string { return e.Message }

// Answer answers request req of run id as an approval link does, by by
// (the answer event's "by"): the first answer recorded wins, and the
// executor goes on with it; a later one, or one to a request the run no
// longer waits on, is not Won and records nothing. A decision that does
// not fit the request is a *RefusedAnswer.
func Answer(h *worker.Handler, ctx context.Context, id, req string, d Decision, by string) (Answered, error) {
	opts := h.Options()
	var store worker.RunStore
	if opts.Runs != nil {
		store = opts.Runs()
	}
	if store == nil {
		return Answered{}, fmt.Errorf("%w: no %s binding", ErrRunStore, worker.RunsBinding)
	}
	rec, found, err := getRun(ctx, store, id, req)
	switch {
	case err != nil:
		return Answered{}, fmt.Errorf("%w: %w", ErrRunStore, err)
	case !found:
		return Answered{}, nil
	case rec.Decision != nil:
		return Answered{Decision: rec.Decision}, nil
	}
	p := gjson.ParseBytes(rec.Public).Get("pending")
	if p.Get("id").String() != req {
		return Answered{}, nil
	}
	var request core.Request
	if err := request.UnmarshalJSON([]byte(p.Get("request").Raw)); err != nil {
		return Answered{}, fmt.Errorf("the pending request of run %s: %w", id, err)
	}
	now := opts.Now()
	answer, decision, bad := decide(request, approveBody{Ok: &d.Ok, Reason: d.Reason, Args: d.Args, Outcome: d.Outcome, Output: d.Output}, now)
	if bad != nil {
		return Answered{}, &RefusedAnswer{*bad}
	}
	dec, err := worker.MarshalJSON(decision)
	if err != nil {
		return Answered{}, err
	}
	step, err := answerStep(answer, request.Kind, by, now)
	if err != nil {
		return Answered{}, err
	}
	won, standing, err := store.Answer(context.WithoutCancel(ctx), id, req, dec, step)
	if err != nil {
		return Answered{}, fmt.Errorf("%w: %w", ErrRunStore, err)
	}
	return Answered{Won: won, Decision: standing}, nil
}
