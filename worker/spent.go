package worker

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/toolnexus/wasm/internal/httpx"
)

// ApprovalsBinding is the Durable Object binding of the approval ledger
// (class ApprovalLedger, worker/js/ledger.mjs): /v1/resume records each
// state token's id there before anything runs.
const ApprovalsBinding = "APPROVALS"

// LedgerGrace keeps a ledger entry this long past its token's expiry, so
// that a Worker whose clock runs behind the ledger's still finds the entry
// while it accepts the token.
const LedgerGrace = time.Minute

// SpentStore remembers the ids of state tokens that were already resumed,
// so that a second resume of the same token is refused with 409.
//
//   - On Workers the store is the ApprovalLedger Durable Object bound as
//     APPROVALS (worker/cfworker/ledger_js.go): one object per token id, and an atomic
//     insert-if-absent in its SQLite storage, so concurrent resumes from
//     anywhere are serialised and exactly one passes.
//   - Natively it is a MemorySpentStore (one process).
//
// A Worker without the binding has no store (Options.Spent returns nil):
// it refuses every resume with 503 approvals_unavailable instead of
// letting a token run its tool twice.
type SpentStore interface {
	// Spend marks id as used until the given time. It reports false when id
	// was already marked. It must be atomic: of concurrent calls with one
	// id, exactly one reports true.
	Spend(ctx context.Context, id string, until time.Time) (fresh bool, err error)
}

// MemorySpentStore is a SpentStore in process memory: right for native runs
// and tests, useless on Workers (an isolate's memory is neither shared with
// the other isolates nor kept).
type MemorySpentStore struct {
	mu    sync.Mutex
	spent map[string]time.Time
	// steps are each token's resume journal (ResumeJournal): entries and
	// their keys.
	steps  map[string][][]byte
	keys   map[string]map[string]bool
	leases map[string]memoryLease
	// Now is the clock of expiry (time.Now); a test sets its own.
	Now func() time.Time
}

// NewMemorySpentStore returns an empty store.
func NewMemorySpentStore() *MemorySpentStore {
	return &MemorySpentStore{spent: map[string]time.Time{}, steps: map[string][][]byte{}, keys: map[string]map[string]bool{}, Now: time.Now}
}

// Spend implements SpentStore. It also drops entries past their time.
func (m *MemorySpentStore) Spend(_ context.Context, id string, until time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.Now()
	for k, t := range m.spent {
		if now.After(t) {
			delete(m.spent, k)
			delete(m.steps, k)
			delete(m.keys, k)
		}
	}
	if _, ok := m.spent[id]; ok {
		return false, nil
	}
	m.spent[id] = until
	return true, nil
}

// SpendWith implements ResumeJournal.
func (m *MemorySpentStore) SpendWith(ctx context.Context, id string, until time.Time, key string, entry []byte, owner string, lease time.Duration) (bool, error) {
	fresh, err := m.Spend(ctx, id, until)
	if fresh && err == nil {
		err = m.Step(ctx, id, key, entry)
	}
	if fresh && err == nil {
		_, err = m.Claim(ctx, id, owner, lease)
	}
	return fresh, err
}

// Claim implements ResumeJournal.
func (m *MemorySpentStore) Claim(_ context.Context, id, owner string, lease time.Duration) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.Now()
	if l, ok := m.leases[id]; ok && l.owner != owner && now.Before(l.until) {
		return false, nil
	}
	if m.leases == nil {
		m.leases = map[string]memoryLease{}
	}
	m.leases[id] = memoryLease{owner: owner, until: now.Add(lease)}
	return true, nil
}

type memoryLease struct {
	owner string
	until time.Time
}

// Steps implements ResumeJournal.
func (m *MemorySpentStore) Steps(_ context.Context, id string) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]byte(nil), m.steps[id]...), nil
}

// Step implements ResumeJournal.
func (m *MemorySpentStore) Step(_ context.Context, id, key string, entry []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.keys[id] == nil {
		m.keys[id] = map[string]bool{}
	}
	if m.keys[id][key] {
		return errors.Join(ErrDuplicateStep, errors.New("worker: resume step "+key+" is recorded already"))
	}
	m.keys[id][key] = true
	m.steps[id] = append(m.steps[id], entry)
	return nil
}

// approvalsProblem is the readiness problem of a Worker without a ledger.
var approvalsProblem = &ConfigError{ApprovalsBinding, "is not bound: /v1/resume is refused (503 approvals_unavailable) because a state token could be resumed more than once; deploy with the generated wrangler.jsonc, which binds the ApprovalLedger Durable Object"}

// Spend records a state token as used in the approval ledger before its
// resume runs anything: the approved tool runs as the first step of the
// resume, so a failure after this point must not let it run twice. It
// answers 503 (no ledger bound, or the ledger failed: the token may be
// used up) or 409 (already resumed) and reports false when the resume
// must not go on.
func (h *Handler) Spend(w httpx.ResponseWriter, r *httpx.Request, st State) bool {
	store := h.opts.Spent()
	if store == nil {
		h.metrics.refusedState("approvals_unavailable")
		h.opts.Logf("worker: resume refused: %v", approvalsProblem)
		writeError(w, httpx.StatusServiceUnavailable, "approvals_unavailable", "this Worker has no approval ledger (the "+ApprovalsBinding+" Durable Object binding), so it cannot make sure a state token runs once; nothing ran. Its operator must deploy with the generated wrangler.jsonc")
		return false
	}
	fresh, err := store.Spend(r.Context(), st.ID, time.Unix(st.ExpiresAt, 0).Add(LedgerGrace))
	if err != nil {
		h.opts.Logf("worker: spent store: %v", err)
		writeError(w, httpx.StatusServiceUnavailable, "state_store", "could not record the state token as used; nothing ran. Retry; if the answer is then 409, start a new run")
		return false
	}
	if !fresh {
		h.metrics.refusedState("state_spent")
		writeError(w, httpx.StatusConflict, "state_spent", "state token was already resumed; nothing ran")
		return false
	}
	return true
}
