package agents

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/tool"
)

// Runtime owns a tree of handles, the global turn gate, the transcript store
// and the clock. It is safe for concurrent use.
type Runtime struct {
	// Root is the host's entry handle: spawn top-level agents under it;
	// Close(Root, nil) stops everything.
	Root *Handle

	mu       sync.Mutex
	opts     Options
	inboxCap int
	shutdown time.Duration
	turnGate chan struct{} // one slot per model call in flight
	store    core.ConversationStore
	clock    Clock
	turns    sync.WaitGroup // every turn goroutine
	resuming bool           // a Resume is running: another one is refused

	inTurns, maxInTurns int // model calls in flight, and their high-water mark

	// policy holds the grants when Options.Approvals is not set;
	// conversation names the runtime's grants' conversation.
	policy       *approval.Policy
	conversation string
}

// NewRuntime builds a runtime with an empty root.
func NewRuntime(opts Options) *Runtime {
	rt := &Runtime{
		opts:     opts,
		inboxCap: orInt(opts.InboxCap, 8),
		shutdown: opts.Shutdown,
		turnGate: make(chan struct{}, orInt(opts.MaxConcurrentTurns, 8)),
		store:    opts.Store,
		clock:    opts.Clock,
		policy:   &approval.Policy{},
		// The team's conversation, unless the context of a turn names one.
		conversation: tool.NewID("team_"),
	}
	if rt.shutdown <= 0 {
		rt.shutdown = 200 * time.Millisecond
	}
	if rt.store == nil {
		rt.store = core.NewMemoryStore()
	}
	if rt.clock == nil {
		rt.clock = systemClock{}
	}
	rt.Root = rt.newHandle("root", Def{Name: "root", Does: "runtime root", Model: "none"}, nil)
	return rt
}

// Spawn creates a child of parent from the registry entry defName, with an
// optional budget overlay. MaxDepth, MaxChildren and the ancestors' pools
// are checked here; a refusal is an error naming the limit.
func (rt *Runtime) Spawn(parent *Handle, defName string, budget *Budget) (*Handle, error) {
	rt.mu.Lock()
	def, ok := rt.opts.Registry[defName]
	if !ok {
		rt.mu.Unlock()
		return nil, fmt.Errorf("agents: unknown agent %q (known: %s)", defName, strings.Join(rt.agentNames(), ", "))
	}
	if parent == nil || parent.state == StateClosed {
		rt.mu.Unlock()
		return nil, errors.New("agents: spawn under a closed or nil parent")
	}
	if parent.depth+1 > parent.eff.maxDepth || parent.depth+1 > MaxTreeDepth {
		rt.mu.Unlock()
		return nil, &LimitError{Limit: LimitMaxDepth, Msg: fmt.Sprintf("%s %d exceeded", LimitMaxDepth, min(parent.eff.maxDepth, MaxTreeDepth))}
	}
	if len(parent.children)+1 > parent.pool.children {
		rt.mu.Unlock()
		return nil, &LimitError{Limit: LimitMaxChildren, Msg: fmt.Sprintf("%s %d exceeded", LimitMaxChildren, parent.pool.children)}
	}
	if limit := rt.budgetRefusalLocked(parent); limit != "" {
		rt.mu.Unlock()
		return nil, &LimitError{Limit: limit, Msg: "budget exhausted (" + limit + "); incomplete"}
	}
	if budget != nil {
		merged := mergeBudget(def.Budget, *budget)
		def.Budget = &merged
	}
	parent.seq++
	child := rt.newHandle(fmt.Sprintf("%s/%s.%d", parent.ID, defName, parent.seq), def, parent)
	parent.children = append(parent.children, child)
	rt.tracef("%s: spawned (depth %d, tokens %s)", child.ID, child.depth, poolString(child.pool.tokens))
	rt.mu.Unlock()
	rt.emit(Event{Type: "spawned", Handle: child.ID, Path: child.path, State: StateIdle})
	if def.OnSpawn != nil {
		def.OnSpawn(child)
	}
	return child, nil
}

func (rt *Runtime) agentNames() []string {
	keys := make([]string, 0, len(rt.opts.Registry))
	for k := range rt.opts.Registry {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Post appends item to h's inbox; it never starts a turn. A closed handle
// or a full inbox refuses the post.
func (rt *Runtime) Post(h *Handle, item InboxItem) PostResult {
	if h == nil {
		return PostResult{Err: errNilHandle}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if h.state == StateClosed {
		return PostResult{Err: "inbox closed: " + h.ID}
	}
	if len(h.inbox) >= rt.inboxCap {
		rt.tracef("%s: post REJECTED (inbox full, cap %d) from %s", h.ID, rt.inboxCap, item.From)
		return PostResult{Err: fmt.Sprintf("inbox full: %s (cap %d)", h.ID, rt.inboxCap)}
	}
	h.inbox = append(h.inbox, item)
	return PostResult{Ok: true}
}

// Wake starts a turn on an idle handle with prompt plus the drained inbox.
// A running handle takes the prompt's inbox at its next turn; a suspended
// one waits for its Answer. Over the parent's MaxConcurrent the wake queues
// and starts when a sibling finishes. An exhausted budget settles the
// handle at once with an "incomplete" result (see Wait).
func (rt *Runtime) Wake(h *Handle, prompt string) PostResult {
	if h == nil {
		return PostResult{Err: errNilHandle}
	}
	rt.mu.Lock()
	switch h.state {
	case StateClosed:
		rt.mu.Unlock()
		return PostResult{Err: "closed: " + h.ID}
	case StateSuspended, StateRunning:
		rt.mu.Unlock()
		return PostResult{Ok: true}
	}
	if p := h.parent; p != nil && p.runningChildren >= p.eff.maxConcurrent {
		h.wakeQueue = append(h.wakeQueue, prompt)
		rt.tracef("%s: wake QUEUED (parent concurrency %d)", h.ID, p.eff.maxConcurrent)
		rt.mu.Unlock()
		return PostResult{Ok: true}
	}
	rt.startLocked(h, turnInput{prompt: prompt})
	rt.mu.Unlock()
	return PostResult{Ok: true}
}

// startLocked takes a parent slot, admits and starts a turn in its own
// goroutine (rt.mu held).
func (rt *Runtime) startLocked(h *Handle, in turnInput) {
	if h.parent != nil {
		h.parent.runningChildren++
	}
	adm, refused := rt.admitLocked(h, in)
	if refused != nil {
		rt.releaseSlotLocked(h)
		rt.settleLocked(h, *refused)
		return
	}
	rt.turns.Add(1)
	go func() {
		defer rt.turns.Done()
		rt.perform(h, adm)
	}()
}

// Wait returns h's next result, or its last one when h has settled (idle
// with a result, suspended, or closed). timeout 0 waits indefinitely; when
// it expires the result is "timeout" and the handle keeps running.
func (rt *Runtime) Wait(h *Handle, timeout time.Duration) TaskResult {
	if h == nil {
		return TaskResult{Text: errNilHandle, IsError: true, Status: TaskStatusError}
	}
	settled, ch := rt.resultOrWaiter(h)
	if settled != nil {
		return *settled
	}
	if timeout <= 0 {
		return <-ch
	}
	select {
	case r := <-ch:
		return r
	case <-rt.clock.After(timeout):
		rt.mu.Lock()
		defer rt.mu.Unlock()
		rt.dropWaiterLocked(h, ch)
		return TaskResult{
			Text: fmt.Sprintf("wait timeout after %s (agent still %s)", timeout, h.state), IsError: true,
			Status: TaskStatusTimeout, Limit: LimitTimeout, Turns: h.turnsTotal, TotalTokens: h.usageTokens,
		}
	}
}

// resultOrWaiter returns h's settled result, or, while h has work in
// flight or queued, a channel registered to receive its next one.
func (rt *Runtime) resultOrWaiter(h *Handle) (*TaskResult, chan TaskResult) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if !h.inFlight && len(h.wakeQueue) == 0 && h.lastResult != nil {
		r := *h.lastResult
		return &r, nil
	}
	ch := make(chan TaskResult, 1)
	h.waiters = append(h.waiters, ch)
	return nil, ch
}

func (rt *Runtime) dropWaiterLocked(h *Handle, ch chan TaskResult) {
	for i, w := range h.waiters {
		if w == ch {
			h.waiters = append(h.waiters[:i], h.waiters[i+1:]...)
			return
		}
	}
}

// settleLocked records r as h's result and hands it to every waiter.
func (rt *Runtime) settleLocked(h *Handle, r TaskResult) {
	h.lastResult = &r
	for _, w := range h.waiters {
		w <- r // buffered: never blocks
	}
	h.waiters = nil
}

// emit hands an event to Options.OnEvent (never with rt.mu held).
// A panicking observer is ignored: it must not break the runtime.
func (rt *Runtime) emit(e Event) {
	if rt.opts.OnEvent == nil {
		return
	}
	defer func() { _ = recover() }()
	rt.opts.OnEvent(e)
}
