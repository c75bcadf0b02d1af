//go:build js && wasm

package cfworker

import (
	"context"
	"fmt"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/jsbridge"

	"github.com/toolnexus/wasm/worker"
)

// detach sends the response now, before the handler returns: a durable
// run answers 202 and goes on in the request (worker.mjs keeps its
// context with ctx.waitUntil until Go is done with it).
func (w *jsResponse) Detach() { w.close() }

// doRuns is a RunStore over the RunLog Durable Object bound as RUNS
// (worker/js/runs.mjs): one object per run id. q is the request it serves.
type doRuns struct {
	ns js.Value
	q  *jsRequest
}

func (d doRuns) call(ctx context.Context, id, method string, args ...any) (js.Value, error) {
	if err := d.q.enter(); err != nil {
		return js.Undefined(), fmt.Errorf("runs: %w", err)
	}
	oid, err := jsbridge.CallMethod(d.ns, "idFromName", id)
	if err != nil {
		return js.Undefined(), fmt.Errorf("runs: %w", err)
	}
	stub, err := jsbridge.CallMethod(d.ns, "get", oid)
	if err != nil {
		return js.Undefined(), fmt.Errorf("runs: %w", err)
	}
	return d.q.jsCall(ctx, "runs "+method, stub, method, args...)
}

func (d doRuns) Create(ctx context.Context, id string, public []byte, until time.Time) error {
	_, err := d.call(ctx, id, "create", string(public), float64(until.UnixMilli()))
	return err
}

func (d doRuns) Put(ctx context.Context, id string, public []byte, secret string) error {
	_, err := d.call(ctx, id, "put", string(public), secret)
	return err
}

func (d doRuns) Get(ctx context.Context, id, req string) (worker.RunRecord, bool, error) {
	v, err := d.call(ctx, id, "get", req)
	if err != nil || v.Type() != js.TypeObject {
		return worker.RunRecord{}, false, err
	}
	rec := worker.RunRecord{Public: []byte(v.Get("public").String()), Secret: v.Get("secret").String()}
	if dec := v.Get("decision"); dec.Type() == js.TypeString {
		rec.Decision = []byte(dec.String())
	}
	return rec, true, nil
}

func (d doRuns) Append(ctx context.Context, id, typ string, data []byte) error {
	_, err := d.call(ctx, id, "append", typ, string(data))
	return err
}

func (d doRuns) Events(ctx context.Context, id string, after int, wait time.Duration) ([]worker.RunEvent, bool, error) {
	v, err := d.call(ctx, id, "events", after, float64(wait.Milliseconds()))
	if err != nil {
		return nil, false, err
	}
	list := v.Get("events")
	out := make([]worker.RunEvent, list.Length())
	for i := range out {
		e := list.Index(i)
		out[i] = worker.RunEvent{Seq: e.Get("seq").Int(), Type: e.Get("type").String(), Data: []byte(e.Get("data").String())}
	}
	return out, v.Get("ended").Bool(), nil
}

func (d doRuns) Answer(ctx context.Context, id, req string, decision []byte) (bool, []byte, error) {
	v, err := d.call(ctx, id, "answer", req, string(decision))
	if err != nil {
		return false, nil, err
	}
	return v.Get("won").Bool(), []byte(v.Get("decision").String()), nil
}

// runsBinding returns the RUNS store of q, or nil when it is not bound.
func (q *jsRequest) runsBinding() worker.RunStore {
	if ns, ok := q.boundObject(worker.RunsBinding); ok && ns.Get("idFromName").Type() == js.TypeFunction {
		return doRuns{ns: ns, q: q}
	}
	return nil
}
