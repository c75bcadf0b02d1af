package a2aserve

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/worker"
)

// A task's progress is its run's event log (worker/runs writes it with the
// journal): SendMessage waits on it, the streaming methods send it on.

// eventsWait is how long one read of the event log waits for news; a
// stream sends a keep-alive comment after each one that brought none.
const eventsWait = 20 * time.Second

// settles reports whether a run event leaves the task waiting for its
// client or ended: the next move is not the run's.
func settles(typ string) bool { return typ == "pending" || typ == "done" || typ == "error" }

// eventCount is how many events run id has logged: a follower that must
// see only what comes next starts after them.
func eventCount(ctx context.Context, store worker.RunStore, id string) (int, error) {
	n := 0
	for {
		evs, _, err := store.Events(ctx, id, n, 0)
		if err != nil || len(evs) == 0 {
			return n, err
		}
		n = evs[len(evs)-1].Seq
	}
}

// follow hands each event of run id after seq after to each, as it is
// logged, until one settles the task, ctx ends or limit (when positive)
// has passed; idle is called after each read that brought nothing. It
// returns the settling event (nil: none came).
func follow(ctx context.Context, store worker.RunStore, id string, after int, limit time.Duration, each func(worker.RunEvent) error, idle func() error) (*worker.RunEvent, error) {
	// Real time, not Options.Now: the handler's clock may not be the
	// context's.
	deadline := time.Now().Add(limit)
	for ctx.Err() == nil {
		wait := eventsWait
		if limit > 0 {
			if left := time.Until(deadline); left <= 0 {
				return nil, nil
			} else if left < wait {
				wait = left
			}
		}
		evs, ended, err := store.Events(ctx, id, after, wait)
		if err != nil {
			return nil, err
		}
		for i := range evs {
			e := evs[i]
			after = e.Seq
			if each != nil {
				if err := each(e); err != nil {
					return nil, err
				}
			}
			if settles(e.Type) {
				return &e, nil
			}
		}
		if len(evs) == 0 {
			if ended {
				return nil, nil
			}
			if idle != nil {
				if err := idle(); err != nil {
					return nil, err
				}
			}
		}
	}
	return nil, ctx.Err()
}

// doneEvent is the done event of an ended run (its toolCalls), nil when
// it has none.
func doneEvent(ctx context.Context, store worker.RunStore, id string) ([]byte, error) {
	var done []byte
	after := 0
	for {
		evs, _, err := store.Events(ctx, id, after, 0)
		if err != nil || len(evs) == 0 {
			return done, err
		}
		for _, e := range evs {
			if e.Type == "done" {
				done = e.Data
			}
		}
		after = evs[len(evs)-1].Seq
	}
}

// stream sends a task's progress as JSON-RPC responses on server-sent
// events: each result one of A2A 1.0's StreamResponse ({"task"},
// {"statusUpdate"}, {"artifactUpdate"}).
type stream struct {
	c   *call
	sse *worker.SSEWriter
	t   *task
}

func (c *call) newStream(t *task) *stream {
	return &stream{c: c, sse: worker.NewSSEWriter(c.w), t: t}
}

// send sends one result (JSON text).
func (s *stream) send(result string) error {
	out := a2a.AppendResult([]byte("data: "), s.c.id, []byte(result))
	return s.sse.Send(append(out, "\n\n"...))
}

// run sends the task as it is now, then, while it runs, its run's events
// after seq after, until the task waits for input or ends, or the client
// goes.
func (s *stream) run(ctx context.Context, store worker.RunStore, after int) {
	if s.send(`{"task":`+string(s.t.json(nil))+`}`) != nil || s.t.status() != "running" {
		return // a task that waits for input, or has ended, has no progress to send
	}
	_, err := follow(ctx, store, s.t.id, after, 0, func(e worker.RunEvent) error { return s.event(ctx, store, e) },
		func() error { return s.sse.Comment("working") })
	if err != nil && ctx.Err() == nil {
		s.c.h.Options().Logf("worker: a2a: stream of task %s: %v", s.t.id, err)
	}
}

// event sends what one run event says of the task: a tool call, its
// result or an answer as a working status with the event as a data part;
// a halt as the input-required status with the request; the end as the
// answer artifact and the completed (or failed) status.
func (s *stream) event(ctx context.Context, store worker.RunStore, e worker.RunEvent) error {
	switch e.Type {
	case "tool_call", "tool_result", "answer":
		d := gjson.ParseBytes(e.Data)
		text := e.Type + " " + d.Get("name").String()
		if e.Type == "answer" {
			text = "answer: " + d.Get("decision").String()
		}
		msg := s.t.message(e.Type+"_"+strconv.Itoa(e.Seq), text, string(e.Data))
		return s.status(`{"state":"`+a2a.WireState(a2a.StateWorking)+`","message":`+msg+`}`, "")
	case "pending", "done", "error":
		t, err := loadTask(ctx, store, s.t.id)
		if err != nil || t == nil {
			return errNoTask
		}
		s.t = t
		state := t.state()
		var done []byte
		if e.Type == "done" {
			done = e.Data
			if err := s.send(`{"artifactUpdate":{` + s.ids() + `,"artifact":` + artifact(t.public.Get("text").String()) + `,"lastChunk":true}}`); err != nil {
				return err
			}
		}
		return s.status(t.statusJSON(state), t.metaJSON(state, done))
	}
	return nil
}

// ids is the task's id and its conversation's, as members of an object.
func (s *stream) ids() string {
	return `"taskId":` + q(s.t.id) + `,"contextId":` + q(s.t.contextID)
}

// status sends a status update of the task (status and metadata: JSON
// text; no metadata when "").
func (s *stream) status(status, metadata string) error {
	if metadata != "" {
		metadata = `,"metadata":` + metadata
	}
	return s.send(`{"statusUpdate":{` + s.ids() + `,"status":` + status + metadata + `}}`)
}

// errNoTask: the task's run is gone while it was followed.
var errNoTask = errors.New("the task's run is no longer stored")
