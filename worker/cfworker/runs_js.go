//go:build js && wasm

package cfworker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/jsbridge"

	"github.com/toolnexus/wasm/worker"
)

// Durable runs live in the RunLog Durable Object bound as RUNS
// (worker/js/runs.mjs), one object per run id. A request of the Worker
// (POST /v1/runs, GET /v1/runs/{id}, the approval links) reaches it
// through its namespace (doRuns: RPC); the run's executor runs inside the
// object (its alarm calls drive, worker/js/worker.mjs) and reaches it
// directly (objectRuns: the object's own methods, no RPC).

// drivePath is the path of the executor's request from its RunLog.
const drivePath = "/__toolnexus/drive"

// drive serves the executor's request: one life of run id (the
// x-toolnexus-run header), answered {"again": bool}.
func (s *server) drive(ctx context.Context, q *jsRequest, w *jsResponse, id string) {
	d, ok := s.handler.(interface {
		DriveRun(ctx context.Context, id string) bool
	})
	if !ok {
		worker.WriteError(w, 501, "not_implemented", "this Worker's handler runs no durable runs")
		return
	}
	again := d.DriveRun(ctx, id)
	worker.WriteJSON(w, 200, map[string]bool{"again": again})
}

// doRuns is a RunStore over the RunLog namespace: one object per run id.
// q is the request it serves.
type doRuns struct {
	ns js.Value
	q  *jsRequest
}

func (d doRuns) call(ctx context.Context, id, method string, args ...any) (js.Value, error) {
	stub, err := d.q.objectStub(d.ns, id)
	if err != nil {
		return js.Undefined(), fmt.Errorf("runs: %w", err)
	}
	return d.q.jsCall(ctx, "runs "+method, stub, method, args...)
}

func (d doRuns) Start(ctx context.Context, id string, s worker.RunStart) (bool, error) {
	v, err := d.call(ctx, id, "start", id, string(s.Entry), string(s.Public), string(s.Meta), float64(s.Until.UnixMilli()))
	return v.Truthy(), err
}

func (d doRuns) Get(ctx context.Context, id, req string) (worker.RunRecord, bool, error) {
	v, err := d.call(ctx, id, "get", req)
	if err != nil || v.Type() != js.TypeObject {
		return worker.RunRecord{}, false, err
	}
	return runRecord(v), true, nil
}

func runRecord(v js.Value) worker.RunRecord {
	rec := worker.RunRecord{Public: []byte(v.Get("public").String()), Meta: []byte(v.Get("meta").String())}
	if dec := v.Get("decision"); dec.Type() == js.TypeString {
		rec.Decision = []byte(dec.String())
	}
	return rec
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

func (d doRuns) Answer(ctx context.Context, id, req string, decision []byte, step worker.RunStep) (bool, []byte, error) {
	v, err := d.call(ctx, id, "answer", req, string(decision), step.Key, string(step.Entry), eventsJSON(step.Events), string(step.Public))
	if err != nil {
		return false, nil, err
	}
	return v.Get("won").Bool(), []byte(v.Get("decision").String()), nil
}

func (d doRuns) Load(ctx context.Context, id string) ([][]byte, error) {
	v, err := d.call(ctx, id, "load")
	if err != nil {
		return nil, err
	}
	return stringList(v), nil
}

func (d doRuns) Record(ctx context.Context, id string, step worker.RunStep) error {
	_, err := d.call(ctx, id, "record", step.Key, string(step.Entry), eventsJSON(step.Events), string(step.Public))
	return duplicate(err)
}

func (d doRuns) Note(ctx context.Context, id, key string) ([]byte, error) {
	v, err := d.call(ctx, id, "note", key)
	if err != nil || v.Type() != js.TypeString {
		return nil, err
	}
	return []byte(v.String()), nil
}

func (d doRuns) SetNote(ctx context.Context, id, key string, value []byte) error {
	_, err := d.call(ctx, id, "setNote", key, string(value))
	return err
}

// objectRuns is the RunStore of the executor: the RunLog object it runs
// in, called directly. Its methods are synchronous (SQLite); each runs in
// the executor's context (q.enter), as any JS call of its request.
type objectRuns struct {
	doRuns // Start, Get, Events and Answer of other runs go through the namespace
	obj    js.Value
}

func (o objectRuns) direct(method string, args ...any) (js.Value, error) {
	if err := o.q.enter(); err != nil {
		return js.Undefined(), fmt.Errorf("runs: %w", err)
	}
	v, err := jsbridge.CallMethod(o.obj, method, args...)
	if err != nil {
		return js.Undefined(), fmt.Errorf("runs %s: %w", method, err)
	}
	return v, nil
}

func (o objectRuns) Load(ctx context.Context, id string) ([][]byte, error) {
	v, err := o.direct("load")
	if err != nil {
		return nil, err
	}
	return stringList(v), nil
}

func (o objectRuns) Record(ctx context.Context, id string, step worker.RunStep) error {
	_, err := o.direct("record", step.Key, string(step.Entry), eventsJSON(step.Events), string(step.Public))
	return duplicate(err)
}

func (o objectRuns) Note(ctx context.Context, id, key string) ([]byte, error) {
	v, err := o.direct("note", key)
	if err != nil || v.Type() != js.TypeString {
		return nil, err
	}
	return []byte(v.String()), nil
}

func (o objectRuns) SetNote(ctx context.Context, id, key string, value []byte) error {
	_, err := o.direct("setNote", key, string(value))
	return err
}

// duplicate makes RunLog's refusal of a recorded key match
// worker.ErrDuplicateStep.
func duplicate(err error) error {
	if err != nil && strings.Contains(err.Error(), "duplicate:") {
		return errors.Join(worker.ErrDuplicateStep, err)
	}
	return err
}

// eventsJSON is events as RunLog reads them: [{"type", "data"}].
func eventsJSON(events []worker.RunEvent) string {
	b := []byte{'['}
	for i, e := range events {
		if i > 0 {
			b = append(b, ',')
		}
		t, _ := worker.MarshalJSON(e.Type)
		d, _ := worker.MarshalJSON(string(e.Data))
		b = append(b, `{"type":`...)
		b = append(b, t...)
		b = append(b, `,"data":`...)
		b = append(b, d...)
		b = append(b, '}')
	}
	return string(append(b, ']'))
}

// stringList reads a JS array of strings.
func stringList(v js.Value) [][]byte {
	out := make([][]byte, v.Length())
	for i := range out {
		out[i] = []byte(v.Index(i).String())
	}
	return out
}

// runsBinding returns the runs' store of q: the RunLog object itself when
// q is its executor, else the RUNS namespace, or nil when it is not bound.
func (q *jsRequest) runsBinding() worker.RunStore {
	ns, ok := q.boundObject(worker.RunsBinding)
	if !ok || ns.Get("idFromName").Type() != js.TypeFunction {
		return nil
	}
	if rl := q.runLogValue(); rl.Type() == js.TypeObject {
		return objectRuns{doRuns: doRuns{ns: ns, q: q}, obj: rl}
	}
	return doRuns{ns: ns, q: q}
}
