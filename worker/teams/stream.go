package teams

import (
	"context"
	"sync"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
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

// agentStreamView is one of core's stream events (text, tool_call,
// tool_result, pending, usage) of an agent's turn, with that agent's
// handle and path.
type agentStreamView struct {
	core.StreamEvent
	Handle string   `json:"handle"`
	Path   []string `json:"path"`
}

// feedItem is one event waiting to be written: its SSE name and data.
type feedItem struct {
	name string
	data any
}

// eventFeed carries the runtime's events (OnEvent and OnStream, called on
// the runtime's goroutines) to the one goroutine that writes the stream.
// It never blocks a turn: the queue is unbounded, and once closed (the run
// settled) further events are dropped.
type eventFeed struct {
	mu     sync.Mutex
	items  []feedItem
	closed bool
	wake   chan struct{}
	// pending holds the ids of the requests a "pending" event was sent for:
	// a request travels up the chain of agents, and each agent's turn on the
	// way reports it; a client gets it once, from the agent that asked.
	pending map[string]bool
}

func newEventFeed() *eventFeed {
	return &eventFeed{wake: make(chan struct{}, 1), pending: map[string]bool{}}
}

func (f *eventFeed) push(it feedItem) {
	f.mu.Lock()
	if !f.closed {
		f.items = append(f.items, it)
	}
	f.mu.Unlock()
	f.notify()
}

func (f *eventFeed) notify() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// onEvent is Options.OnEvent.
func (f *eventFeed) onEvent(e agents.Event) {
	v := agentEventView{Type: e.Type, Handle: e.Handle, Path: e.Path, State: string(e.State), Request: e.Request}
	if e.Result != nil {
		v.Status, v.Text = e.Result.Status, e.Result.Text
	}
	f.push(feedItem{"agent", v})
}

// onStream is Options.OnStream. A turn's end is reported by onEvent; a
// request already reported by the agent that asked is not sent again by
// the agents above it.
func (f *eventFeed) onStream(e agents.StreamEvent) {
	if e.Type == core.EventDone || e.Type == core.EventError {
		return
	}
	if e.Type == core.EventPending && e.Request != nil {
		f.mu.Lock()
		seen := f.pending[e.Request.ID]
		f.pending[e.Request.ID] = true
		f.mu.Unlock()
		if seen {
			return
		}
	}
	f.push(feedItem{e.Type, agentStreamView{StreamEvent: e.StreamEvent, Handle: e.Handle, Path: e.Path}})
}

// close stops the feed; what is queued can still be read.
func (f *eventFeed) close() {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	f.notify()
}

// next returns the queued events, waiting for some; false once the feed is
// closed and drained.
func (f *eventFeed) next() ([]feedItem, bool) {
	for {
		f.mu.Lock()
		items, closed := f.items, f.closed
		f.items = nil
		f.mu.Unlock()
		if len(items) > 0 {
			return items, true
		}
		if closed {
			return nil, false
		}
		<-f.wake
	}
}

// streamTeam answers a team run with server-sent events, each with the
// path of the agent it comes from:
//
//	event: agent   data: agentEventView (spawned, running, suspended,
//	                     resumed, settled, closed)
//	event: text, tool_call, tool_result, pending, usage
//	               data: core's stream event plus "handle" and "path"
//
// and then "done" (the body the JSON answer has, state included when
// pending) or "error" (the error body). A client that goes away stops the
// run.
func streamTeam(h *worker.Handler, w httpx.ResponseWriter, ctx context.Context, rt *agents.Runtime, run func() agents.TaskResult, feed *eventFeed, finish func(agents.TaskResult) (int, any)) {
	sse := worker.NewSSEWriter(w)
	sse.Comment("toolnexus stream")
	res := drainTeam(ctx, rt, run, feed, func(it feedItem) error { return sse.Event(it.name, it.data) })
	status, body := finish(res)
	name := core.EventDone
	if status != httpx.StatusOK {
		name = core.EventError
	}
	sse.Event(name, body)
}

// drainTeam runs the team while this goroutine hands each of feed's events
// to send, in order; a send error (the client is gone) cancels the run,
// whose result it returns once the feed is closed.
func drainTeam(ctx context.Context, rt *agents.Runtime, run func() agents.TaskResult, feed *eventFeed, send func(feedItem) error) agents.TaskResult {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan agents.TaskResult, 1)
	go func() {
		res := runTeam(ctx, rt, run)
		feed.close()
		done <- res
	}()
	for {
		items, ok := feed.next()
		if !ok {
			break
		}
		for _, it := range items {
			if send(it) != nil {
				cancel()
			}
		}
	}
	return <-done
}
