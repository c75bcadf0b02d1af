package agents

import (
	"context"
	"sync"
)

// streamFlow keeps a streamed team's events in the order they happened.
// A turn's own events reach Options.OnStream from drive, which reads them
// from the stream's channel on its own goroutine; a task call's member is
// run on the turn's loop goroutine, and its drive forwards the member's
// events from there. Without a wait, the member's first events could reach
// the observer before the task call they belong to, still in the channel:
// a UI would show a member's approval request before the call that led to
// it. So a task call that the loop announced (an EventToolCall) starts its
// member only once drive has forwarded that announcement.
type streamFlow struct {
	mu      sync.Mutex
	changed chan struct{} // closed (and replaced) whenever forwarded or ended changes
	// announced counts the task calls by call id that have waited, and
	// forwarded the task EventToolCalls drive has handed on: ids repeat
	// across a turn's model calls, so counts, not a set.
	announced map[string]int
	forwarded map[string]int
	ended     bool
}

func newStreamFlow() *streamFlow {
	return &streamFlow{changed: make(chan struct{}), announced: map[string]int{}, forwarded: map[string]int{}}
}

// flowWaitHook, when set (tests), is called as a task call starts to wait.
var flowWaitHook func()

// forward records that drive has handed on a task call's announcement.
func (f *streamFlow) forward(id string) {
	f.mu.Lock()
	f.forwarded[id]++
	f.signal()
	f.mu.Unlock()
}

// end releases every waiter: the turn's stream is over.
func (f *streamFlow) end() {
	f.mu.Lock()
	f.ended = true
	f.signal()
	f.mu.Unlock()
}

func (f *streamFlow) signal() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// await returns once the announcement of task call id has been handed on,
// the stream has ended, or ctx is done (a cancelled stream may drop it).
func (f *streamFlow) await(ctx context.Context, id string) {
	f.mu.Lock()
	f.announced[id]++
	n := f.announced[id]
	hooked := false
	for !f.ended && f.forwarded[id] < n {
		ch := f.changed
		f.mu.Unlock()
		if !hooked && flowWaitHook != nil {
			hooked = true
			flowWaitHook()
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
		f.mu.Lock()
	}
	f.mu.Unlock()
}
