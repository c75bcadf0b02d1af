package agents

import (
	"errors"
)

var (
	errInterrupted = errors.New("interrupted")
	errClosed      = errors.New("closed")
)

// Interrupt aborts h's running turn: h goes back to idle with its inbox
// intact (including what the aborted turn had drained) and waiters get an
// "interrupted" result. It stops the turn, not the agent. On a suspended
// handle it withdraws the pending Request.
func (rt *Runtime) Interrupt(h *Handle) {
	if h == nil {
		return
	}
	rt.mu.Lock()
	switch {
	case h.state == StateSuspended && !h.inFlight:
		if h.pendingReq != nil {
			rt.tracef("%s: suspended→idle (interrupt cancelled pending %q)", h.ID, h.pendingReq.Kind)
		}
		h.halt, h.pendingReq = nil, nil
		rt.restoreDrainedLocked(h)
		h.state = StateIdle
		r := TaskResult{Text: "interrupted", IsError: true, Status: TaskStatusInterrupted, Turns: h.turnsTotal, TotalTokens: h.usageTokens}
		rt.settleLocked(h, r)
		rt.mu.Unlock()
		rt.emit(Event{Type: "settled", Handle: h.ID, Path: h.path, State: StateIdle, Result: &r})
	case h.inFlight:
		cancel := h.cancel
		rt.mu.Unlock()
		if cancel != nil {
			cancel(errInterrupted)
		}
	default:
		rt.mu.Unlock()
	}
}

// restoreDrainedLocked puts an aborted turn's drained items back in front.
func (rt *Runtime) restoreDrainedLocked(h *Handle) {
	if len(h.drained) > 0 {
		h.inbox = append(append([]InboxItem(nil), h.drained...), h.inbox...)
		h.drained = nil
	}
}

// Close stops h: children first (leaf-first), then a running turn gets
// Options.Shutdown to finish (Force: none) before it is interrupted; then
// OnClose runs, waiters get a "closed" result, and the handle's last result
// and transcript stay readable. Close(rt.Root, nil) stops everything and
// returns after every turn goroutine has ended — so it must not be called
// from inside an agent's own tool, hook or WaitFor (it would wait on
// itself); a tool that wants to stop the run returns, or the host cancels.
func (rt *Runtime) Close(h *Handle, opts *CloseOptions) {
	if h == nil {
		return
	}
	force := opts != nil && opts.Force
	rt.mu.Lock()
	if h.state == StateClosed || h.closing {
		rt.mu.Unlock()
		return
	}
	h.closing = true
	kids := append([]*Handle(nil), h.children...)
	rt.mu.Unlock()
	for _, c := range kids {
		rt.Close(c, opts)
	}
	rt.mu.Lock()
	running := h.inFlight
	rt.mu.Unlock()
	if running {
		if !force {
			rt.Wait(h, rt.shutdown)
		}
		rt.mu.Lock()
		still, cancel := h.inFlight, h.cancel
		rt.mu.Unlock()
		if still && cancel != nil {
			cancel(errClosed)
			rt.Wait(h, 0) // the abort settles: drained items come back
		}
	}
	reason := ReasonClosed
	if opts != nil && opts.Reason != "" {
		reason = opts.Reason
	} else if force {
		reason = ReasonInterrupted
	}
	if h.def.OnClose != nil {
		h.def.OnClose(h, reason)
	}
	rt.mu.Lock()
	h.state = StateClosed
	rt.tracef("%s: →closed (%s)", h.ID, reason)
	h.wakeQueue = nil
	ws := h.waiters
	h.waiters = nil
	r := TaskResult{Text: "closed", IsError: true, Status: TaskStatusClosed, Turns: h.turnsTotal, TotalTokens: h.usageTokens}
	if h.lastResult == nil {
		h.lastResult = &r
	}
	rt.mu.Unlock()
	for _, w := range ws {
		w <- r
	}
	rt.emit(Event{Type: "closed", Handle: h.ID, Path: h.path, State: StateClosed})
	if h == rt.Root {
		rt.turns.Wait()
	}
}

// List returns a row per handle under Root (Root excluded), in spawn order.
func (rt *Runtime) List() []HandleView {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var acc []HandleView
	var walk func(h *Handle)
	walk = func(h *Handle) {
		if h != rt.Root {
			acc = append(acc, rt.viewLocked(h))
		}
		for _, c := range h.children {
			walk(c)
		}
	}
	walk(rt.Root)
	return acc
}

// Inspect returns h's row.
func (rt *Runtime) Inspect(h *Handle) HandleView {
	if h == nil {
		return HandleView{}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.viewLocked(h)
}

func (rt *Runtime) viewLocked(h *Handle) HandleView {
	kind := ""
	if h.pendingReq != nil {
		kind = h.pendingReq.Kind
	}
	return HandleView{
		ID: h.ID, Agent: h.def.Name, Path: append([]string(nil), h.path...), State: h.state,
		Tokens: h.usageTokens, Turns: h.turnsTotal, Inbox: len(h.inbox), PendingKind: kind,
	}
}

// StateOf returns h's state.
func (rt *Runtime) StateOf(h *Handle) State {
	if h == nil {
		return StateClosed
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return h.state
}

// InboxLen returns h's inbox depth.
func (rt *Runtime) InboxLen(h *Handle) int {
	if h == nil {
		return 0
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return len(h.inbox)
}

// PoolTokens returns what is left of h's token pool.
func (rt *Runtime) PoolTokens(h *Handle) int64 {
	if h == nil {
		return 0
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return h.pool.tokens
}

// UsageTokens returns the tokens h's subtree used (the ledger).
func (rt *Runtime) UsageTokens(h *Handle) int {
	if h == nil {
		return 0
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return h.usageTokens
}
