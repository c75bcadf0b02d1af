//go:build js && wasm

package cfworker

import (
	"context"
	"fmt"
	"syscall/js"
	"time"
)

// doLedger is a SpentStore and a TreeStore over the ApprovalLedger Durable Object bound as
// APPROVALS (worker/js/ledger.mjs): one object per state token id, whose
// spend(id, untilMs) RPC inserts the id with a compare-and-set in the
// object's SQLite storage and answers whether it was absent. q is the
// request it serves (Options binds it per request).
type doLedger struct {
	ns js.Value
	q  *jsRequest
}

// stub returns the ledger object named after the state token id. The stub
// is an I/O object: made in the request's context.
func (l doLedger) stub(id string) (js.Value, error) {
	stub, err := l.q.objectStub(l.ns, id)
	if err != nil {
		return js.Undefined(), fmt.Errorf("approvals: %w", err)
	}
	return stub, nil
}

func (l doLedger) Spend(ctx context.Context, id string, until time.Time) (bool, error) {
	stub, err := l.stub(id)
	if err != nil {
		return false, err
	}
	v, err := l.q.jsCall(ctx, "approvals spend", stub, "spend", id, float64(until.UnixMilli()))
	if err != nil {
		return false, err
	}
	if v.Type() != js.TypeBoolean {
		return false, fmt.Errorf("approvals spend: answered %s, not a boolean", v.Type())
	}
	return v.Bool(), nil
}

// Put implements TreeStore: putTree(id, tree, untilMs) on the object named
// after the token id, which deletes it at untilMs (an alarm).
func (l doLedger) Put(ctx context.Context, id string, tree []byte, until time.Time) error {
	stub, err := l.stub(id)
	if err != nil {
		return err
	}
	_, err = l.q.jsCall(ctx, "approvals putTree", stub, "putTree", id, string(tree), float64(until.UnixMilli()))
	return err
}

// Take implements TreeStore: takeTree(id) reads and deletes the tree in
// one call, null when there is none (or it expired).
func (l doLedger) Take(ctx context.Context, id string) ([]byte, error) {
	stub, err := l.stub(id)
	if err != nil {
		return nil, err
	}
	v, err := l.q.jsCall(ctx, "approvals takeTree", stub, "takeTree", id)
	if err != nil {
		return nil, err
	}
	switch v.Type() {
	case js.TypeNull, js.TypeUndefined:
		return nil, nil
	case js.TypeString:
		return []byte(v.String()), nil
	}
	return nil, fmt.Errorf("approvals takeTree: answered %s, not a string", v.Type())
}

// SpendWith implements worker.ResumeJournal: spend, recording the
// answer's journal entry in the same transaction.
func (l doLedger) SpendWith(ctx context.Context, id string, until time.Time, key string, entry []byte, owner string, lease time.Duration) (bool, error) {
	stub, err := l.stub(id)
	if err != nil {
		return false, err
	}
	v, err := l.q.jsCall(ctx, "approvals spend", stub, "spend", id, float64(until.UnixMilli()), key, string(entry), owner, float64(lease.Milliseconds()))
	if err != nil {
		return false, err
	}
	if v.Type() != js.TypeBoolean {
		return false, fmt.Errorf("approvals spend: answered %s, not a boolean", v.Type())
	}
	return v.Bool(), nil
}

// Steps implements worker.ResumeJournal.
func (l doLedger) Steps(ctx context.Context, id string) ([][]byte, error) {
	stub, err := l.stub(id)
	if err != nil {
		return nil, err
	}
	v, err := l.q.jsCall(ctx, "approvals steps", stub, "steps", id)
	if err != nil {
		return nil, err
	}
	return stringList(v), nil
}

// Step implements worker.ResumeJournal.
func (l doLedger) Step(ctx context.Context, id, key string, entry []byte) error {
	stub, err := l.stub(id)
	if err != nil {
		return err
	}
	_, err = l.q.jsCall(ctx, "approvals step", stub, "step", id, key, string(entry))
	return duplicate(err)
}

// Claim implements worker.ResumeJournal.
func (l doLedger) Claim(ctx context.Context, id, owner string, lease time.Duration) (bool, error) {
	stub, err := l.stub(id)
	if err != nil {
		return false, err
	}
	v, err := l.q.jsCall(ctx, "approvals claim", stub, "claim", id, owner, float64(lease.Milliseconds()))
	if err != nil {
		return false, err
	}
	return v.Truthy(), nil
}
