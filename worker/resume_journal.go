package worker

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/internal/httpx"
)

// A state token's resume is journaled in the token's ledger entry (issue
// 31): the answer with the spend, in one transaction, then every step the
// resume takes. A retry of a token whose resume was cut off (the Worker
// stopped after the token was spent) goes on from that journal rather
// than being refused with nothing said: a recorded outcome is used, a
// model call is made again, and an approved call whose outcome was lost
// halts the run with a request of kind core.KindOutcomeUnknown, under a
// new state token. A token whose resume finished — ended, or halted again
// and handed out a new token — is refused with 409 state_spent as before.

// ResumeJournal is a SpentStore that keeps each token's resume journal.
type ResumeJournal interface {
	SpentStore
	// SpendWith is Spend that, on the first use, records entry (the
	// journal's answer entry, whose key is key) and gives owner the
	// resume's lease, in the same transaction.
	SpendWith(ctx context.Context, id string, until time.Time, key string, entry []byte, owner string, lease time.Duration) (fresh bool, err error)
	// Claim takes or renews the lease on id's resume for owner; false: a
	// resume of another owner holds it (it is running).
	Claim(ctx context.Context, id, owner string, lease time.Duration) (bool, error)
	// Steps returns token id's journal entries, in order.
	Steps(ctx context.Context, id string) ([][]byte, error)
	// Step appends one entry; a key recorded already is an error matching
	// ErrDuplicateStep.
	Step(ctx context.Context, id, key string, entry []byte) error
}

// ResumeRun is the journal of one token's resume (journal.Journal):
// its start is the sealed transcript, its other entries are in the ledger.
// A product resumes with core's Client.Continue (or Stream) over it.
type ResumeRun struct {
	store ResumeJournal
	id    string
	start journal.Entry
	now   func() time.Time
	mu    sync.Mutex
	owner string // this resume's lease (resumeLease)
}

// resumeLease is how long a resume's lease lasts without renewal; a
// running resume renews it every third of that. A retry of a token whose
// resume stopped with its Worker waits at most this long to go on.
const resumeLease = 30 * time.Second

func (j *ResumeRun) Load(ctx context.Context) ([]journal.Entry, error) {
	texts, err := j.store.Steps(ctx, j.id)
	if err != nil {
		return nil, fmt.Errorf("the resume's journal: %w", err)
	}
	rest, err := journal.DecodeAll(texts)
	if err != nil {
		return nil, err
	}
	return append([]journal.Entry{j.start}, rest...), nil
}

func (j *ResumeRun) Record(ctx context.Context, e journal.Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	e.At = j.now().UnixMilli()
	text, err := e.AppendJSON(nil)
	if err != nil {
		return err
	}
	return j.store.Step(ctx, j.id, e.Key(), text)
}

// SpendJournaled spends st with answer (given by by: "api", "ai-sdk"),
// journaled when the ledger keeps journals. It returns the resume's journal (nil: the ledger keeps none;
// resume with RunWithAnswer) and reports false when it has answered: 503
// without a ledger or when it fails, 409 when the token's resume finished.
func (h *Handler) SpendJournaled(w httpx.ResponseWriter, r *httpx.Request, st State, answer core.Answer, by string) (*ResumeRun, bool) {
	rj, ok := h.opts.Spent().(ResumeJournal)
	if !ok {
		return nil, h.Spend(w, r, st)
	}
	e := journal.AnswerEntry(answer, by)
	e.At = h.opts.Now().UnixMilli()
	text, err := e.AppendJSON(nil)
	if err != nil {
		h.InternalError(w, err)
		return nil, false
	}
	owner := RandomHex(8)
	fresh, err := rj.SpendWith(r.Context(), st.ID, time.Unix(st.ExpiresAt, 0).Add(LedgerGrace), e.Key(), text, owner, resumeLease)
	if err != nil {
		h.opts.Logf("worker: spent store: %v", err)
		writeError(w, httpx.StatusServiceUnavailable, "state_store", "could not record the state token as used; nothing ran. Retry; if the answer is then 409, start a new run")
		return nil, false
	}
	msgs := make([]json.RawMessage, len(st.Messages))
	copy(msgs, st.Messages)
	j := &ResumeRun{store: rj, id: st.ID, start: journal.Resume(st.ID, msgs, st.Pending, nil), now: h.opts.Now, owner: owner}
	if fresh {
		j.keep(r.Context())
		return j, true
	}
	steps, err := rj.Steps(r.Context(), st.ID)
	if err != nil {
		h.opts.Logf("worker: spent store: %v", err)
		writeError(w, httpx.StatusServiceUnavailable, "state_store", "could not read what the state token's resume did; nothing ran. Retry")
		return nil, false
	}
	if len(steps) == 0 || finished(steps) {
		h.metrics.refusedState("state_spent")
		writeError(w, httpx.StatusConflict, "state_spent", "state token was already resumed; nothing ran")
		return nil, false
	}
	// Spent, begun, and never finished: still running elsewhere (its lease
	// is held), or cut off when its Worker stopped. Go on from its journal,
	// with the answer it recorded, once the lease is ours.
	took, err := rj.Claim(r.Context(), st.ID, owner, resumeLease)
	if err != nil {
		h.opts.Logf("worker: spent store: %v", err)
		writeError(w, httpx.StatusServiceUnavailable, "state_store", "could not read what the state token's resume did; nothing ran. Retry")
		return nil, false
	}
	if !took {
		h.metrics.refusedState("state_spent")
		w.Header().Set("Retry-After", "30")
		writeError(w, httpx.StatusConflict, "state_spent", "state token was already resumed, and that resume is still running; nothing ran. Should it stop unfinished, a retry after 30 s goes on from what it recorded")
		return nil, false
	}
	h.opts.Logf("worker: resume of state %s was cut off after %d steps; going on from its journal", st.ID, len(steps))
	j.keep(r.Context())
	return j, true
}

// keep renews j's lease while ctx lasts (the request that resumes).
func (j *ResumeRun) keep(ctx context.Context) {
	go func() {
		t := time.NewTicker(resumeLease / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				j.store.Claim(context.WithoutCancel(ctx), j.id, j.owner, resumeLease)
			}
		}
	}()
}

// finished reports whether a resume's journal entries end the resume: the
// run ended, or halted and handed a new token out (endPending).
func finished(steps [][]byte) bool {
	last, err := journal.Decode(steps[len(steps)-1])
	return err != nil || last.Kind == journal.KindEnd
}

// HandedOut records, when the resume in j halted again, that it handed a
// new state token out: a retry of the old token is then refused (409)
// rather than handing out a second token for the same request. If this
// cannot be recorded, a retry hands out a token for the same request
// again — the first never reached its caller. A nil j does nothing.
func (j *ResumeRun) HandedOut(ctx context.Context, res core.RunResult, err error) {
	if j == nil || err != nil || res.Status != core.StatusPending {
		return
	}
	if err := j.Record(context.WithoutCancel(ctx), journal.Entry{Kind: journal.KindEnd, Status: core.StatusPending}); err != nil && !errors.Is(err, journal.ErrDuplicate) {
		return
	}
}

// Stream is c.StreamContinue over j, recording when the run halts again
// that it handed a new token out (HandedOut).
func (j *ResumeRun) Stream(ctx context.Context, c *core.Client, tk *core.Toolkit) (<-chan core.StreamEvent, error) {
	in, err := c.StreamContinue(ctx, tk, j)
	if err != nil {
		return nil, err
	}
	out := make(chan core.StreamEvent, cap(in))
	go func() {
		defer close(out)
		for e := range in {
			if e.Type == core.EventDone && e.Result != nil {
				j.HandedOut(ctx, *e.Result, nil)
			}
			out <- e
		}
	}()
	return out, nil
}
