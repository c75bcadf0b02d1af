package agents

import (
	"strings"
	"sync"
	"time"
)

// StartOptions configures StartAgent: the runtime's Options (Registry is
// filled in from the agent) plus the heartbeat.
type StartOptions struct {
	Options
	// EveryMs is the heartbeat interval in milliseconds.
	EveryMs int64
	// OnBeat receives each beat's reply, except HeartbeatOK ones.
	OnBeat func(text string)
}

// heartbeatPrompt wakes a persona on each beat.
const heartbeatPrompt = "Heartbeat. Read your HEARTBEAT.md section and follow it. If nothing needs attention, reply " + HeartbeatOK + "."

// StartedAgent is a persona running on a heartbeat; Stop ends it.
type StartedAgent struct {
	rt     *Runtime
	handle *Handle
	stop   chan struct{}
	wg     sync.WaitGroup

	mu    sync.Mutex
	beats []string

	// beat is signalled (without blocking) after each beat has been
	// handled: a test on a virtual clock waits on it.
	beat chan struct{}
}

// StartAgent runs a on its own runtime and, every EveryMs on the
// runtime's Clock, posts a timer tick to its inbox (ticks coalesce) and,
// when it is idle, wakes it with the heartbeat prompt. Replies other than
// HeartbeatOK reach OnBeat and Beats. Inbound messages from elsewhere are
// the host's: Post or Wake the Handle.
func StartAgent(a *Agent, opts StartOptions) (*StartedAgent, error) {
	ro := opts.Options
	ro.Registry = a.Registry()
	rt := NewRuntime(ro)
	h, err := rt.Spawn(rt.Root, a.Name, nil)
	if err != nil {
		rt.Close(rt.Root, nil)
		return nil, err
	}
	sa := &StartedAgent{rt: rt, handle: h, stop: make(chan struct{}), beat: make(chan struct{}, 1)}
	every := time.Duration(opts.EveryMs) * time.Millisecond
	sa.wg.Add(1)
	go sa.run(every, opts.OnBeat)
	return sa, nil
}

func (sa *StartedAgent) run(every time.Duration, onBeat func(string)) {
	defer sa.wg.Done()
	for {
		select {
		case <-sa.stop:
			return
		case <-sa.rt.clock.After(every):
		}
		sa.rt.Post(sa.handle, InboxItem{From: "clock", Channel: "timer", Text: "tick"})
		if sa.rt.StateOf(sa.handle) != StateIdle || !sa.rt.Wake(sa.handle, heartbeatPrompt).Ok {
			sa.signal() // busy: the tick waits in the inbox for the next turn
			continue
		}
		sa.wg.Add(1)
		go func() {
			defer sa.wg.Done()
			r := sa.rt.Wait(sa.handle, 0)
			if !r.IsError && !strings.Contains(r.Text, HeartbeatOK) {
				sa.mu.Lock()
				sa.beats = append(sa.beats, r.Text)
				sa.mu.Unlock()
				if onBeat != nil {
					onBeat(r.Text)
				}
			}
			sa.signal()
		}()
	}
}

func (sa *StartedAgent) signal() {
	select {
	case sa.beat <- struct{}{}:
	default:
	}
}

// Beats is a copy of the reported beats so far.
func (sa *StartedAgent) Beats() []string {
	sa.mu.Lock()
	defer sa.mu.Unlock()
	return append([]string(nil), sa.beats...)
}

// Handle is the persona's handle, for the host's own Post and Wake.
func (sa *StartedAgent) Handle() *Handle { return sa.handle }

// Runtime is the persona's runtime.
func (sa *StartedAgent) Runtime() *Runtime { return sa.rt }

// Stop ends the heartbeat and closes the runtime.
func (sa *StartedAgent) Stop() {
	close(sa.stop)
	sa.wg.Wait()
	sa.rt.Close(sa.rt.Root, nil)
}
