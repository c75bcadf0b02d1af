//go:build js && wasm

package worker

import (
	"context"
	"fmt"
	"syscall/js"
	"time"
)

// doLedger is a SpentStore over the ApprovalLedger Durable Object bound as
// APPROVALS (worker/js/ledger.mjs): one object per state token id, whose
// spend(id, untilMs) RPC inserts the id with a compare-and-set in the
// object's SQLite storage and answers whether it was absent.
type doLedger struct{ ns js.Value }

// approvalsLedger returns the ledger bound as name, or nil when the Worker
// has no such Durable Object binding.
func approvalsLedger(name string) func() SpentStore {
	return func() SpentStore {
		if ns, ok := boundObject(name); ok && ns.Get("idFromName").Type() == js.TypeFunction {
			return doLedger{ns}
		}
		return nil
	}
}

func (l doLedger) Spend(ctx context.Context, id string, until time.Time) (bool, error) {
	var stub js.Value
	if err := catch(func() { stub = l.ns.Call("get", l.ns.Call("idFromName", id)) }); err != nil {
		return false, fmt.Errorf("approvals: %w", err)
	}
	v, err := jsCall(ctx, "approvals spend", stub, "spend", id, float64(until.UnixMilli()))
	if err != nil {
		return false, err
	}
	if v.Type() != js.TypeBoolean {
		return false, fmt.Errorf("approvals spend: answered %s, not a boolean", v.Type())
	}
	return v.Bool(), nil
}
