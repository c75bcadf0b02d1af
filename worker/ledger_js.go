//go:build js && wasm

package worker

import (
	"context"
	"fmt"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/jsbridge"
)

// doLedger is a SpentStore over the ApprovalLedger Durable Object bound as
// APPROVALS (worker/js/ledger.mjs): one object per state token id, whose
// spend(id, untilMs) RPC inserts the id with a compare-and-set in the
// object's SQLite storage and answers whether it was absent. q is the
// request it serves (PlatformOptions binds it per request).
type doLedger struct {
	ns js.Value
	q  *jsRequest
}

func (l doLedger) Spend(ctx context.Context, id string, until time.Time) (bool, error) {
	// The stub is an I/O object: made in the request's context.
	if err := l.q.enter(); err != nil {
		return false, fmt.Errorf("approvals: %w", err)
	}
	oid, err := jsbridge.CallMethod(l.ns, "idFromName", id)
	if err != nil {
		return false, fmt.Errorf("approvals: %w", err)
	}
	stub, err := jsbridge.CallMethod(l.ns, "get", oid)
	if err != nil {
		return false, fmt.Errorf("approvals: %w", err)
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
