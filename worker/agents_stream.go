package worker

import (
	"context"
	"net/http"
	"sync"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
)

// agentEventView is one "agent" event of a streamed team run: a handle's
// transition with the agent's path (["support", "billing"]), the request
// it suspended on, or the result it settled with.
type agentEventView struct {
	Type    string        `json:"type"`
	Handle  string        `json:"handle"`
	Path    []string      `json:"path"`
	State   string        `json:"state"`
	Request *core.Request `json:"request,omitempty"`
	Status  string        `json:"status,omitempty"`
	Text    string        `json:"text,omitempty"`
}

// eventFeed carries the runtime's events (OnEvent, called on the runtime's
// goroutines) to the one goroutine that writes the stream. It never blocks
// a turn: past its buffer, or once the run has settled, events are dropped.
type eventFeed struct {
	mu     sync.Mutex
	ch     chan agents.Event
	closed bool
}

func newEventFeed() *eventFeed { return &eventFeed{ch: make(chan agents.Event, 256)} }

func (f *eventFeed) send(e agents.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	select {
	case f.ch <- e:
	default:
	}
}

// close stops the feed; what is buffered can still be read.
func (f *eventFeed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.ch)
	}
}

// streamTeam answers a team run with server-sent events:
//
//	event: agent   data: agentEventView (spawned, running, suspended,
//	                     resumed, settled, closed), with the agent's path
//
// and then "done" (the body the JSON answer has, state included when
// pending) or "error" (the error body). A client that goes away stops the
// run.
func (h *Handler) streamTeam(w http.ResponseWriter, ctx context.Context, rt *agents.Runtime, run func() agents.TaskResult, feed *eventFeed, finish func(agents.TaskResult) (int, any)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sse := newSSEWriter(w)
	sse.comment("toolnexus stream")
	done := make(chan agents.TaskResult, 1)
	go func() {
		r := runTeam(ctx, rt, run)
		feed.close()
		done <- r
	}()
	for e := range feed.ch {
		v := agentEventView{Type: e.Type, Handle: e.Handle, Path: e.Path, State: string(e.State), Request: e.Request}
		if e.Result != nil {
			v.Status, v.Text = e.Result.Status, e.Result.Text
		}
		if err := sse.event("agent", v); err != nil {
			cancel() // the client is gone
		}
	}
	status, body := finish(<-done)
	name := core.EventDone
	if status != http.StatusOK {
		name = core.EventError
	}
	sse.event(name, body)
}
