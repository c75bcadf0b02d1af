package agents

import (
	"sync"
	"time"

	coreagents "github.com/toolnexus/wasm/core/agents"
	tn "github.com/toolnexus/wasm/toolnexus"
)

// Runtime is the port's runtime over the kernel's: the same handle tree
// and verbs, plus the transition trace and the store it was given.
type Runtime struct {
	// Root is the host's entry handle; Close(Root, nil) stops everything.
	Root *Handle

	k     *coreagents.Runtime
	opts  Options
	store tn.ConversationStore
	clock Clock

	mu    sync.Mutex
	trace []string
}

// NewRuntime builds a runtime with an empty root.
func NewRuntime(opts Options) *Runtime {
	rt := &Runtime{opts: opts, store: opts.Store, clock: opts.Clock}
	if rt.store == nil {
		rt.store = tn.NewInMemoryConversationStore()
	}
	if rt.clock == nil {
		rt.clock = systemClock{}
	}
	rt.k = coreagents.NewRuntime(kernelOptions(opts, rt.store, rt.clock, rt.record))
	rt.Root = rt.k.Root
	return rt
}

// record keeps one trace line (the kernel's OnTrace).
func (rt *Runtime) record(line string) {
	rt.mu.Lock()
	rt.trace = append(rt.trace, line)
	rt.mu.Unlock()
}

// Trace is a copy of the transition trace so far, one line per transition
// ("root/a.1: idle→running (wake)").
func (rt *Runtime) Trace() []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return append([]string(nil), rt.trace...)
}

// ConversationStore is the runtime's one transcript store (conversation id
// = handle id): Options.Store itself, or the in-memory default.
func (rt *Runtime) ConversationStore() tn.ConversationStore { return rt.store }

// Spawn creates a child of parent from the registry entry defName.
func (rt *Runtime) Spawn(parent *Handle, defName string, budget *Budget) (*Handle, error) {
	return rt.k.Spawn(parent, defName, budget)
}

// Post appends item to h's inbox without starting a turn.
func (rt *Runtime) Post(h *Handle, item InboxItem) PostResult { return rt.k.Post(h, item) }

// Wake starts a turn on an idle handle with prompt plus the drained inbox.
func (rt *Runtime) Wake(h *Handle, prompt string) PostResult { return rt.k.Wake(h, prompt) }

// Wait returns h's next result, or its last when h has settled; a
// timeout > 0 ends the wait with a "timeout" result.
func (rt *Runtime) Wait(h *Handle, timeout time.Duration) TaskResult {
	return taskResultFromCore(rt.k.Wait(h, timeout))
}

// RunTurn runs one turn on an idle handle and returns its result.
func (rt *Runtime) RunTurn(h *Handle, prompt string) TaskResult {
	return taskResultFromCore(rt.k.RunTurn(h, prompt))
}

// Interrupt aborts h's running turn (or withdraws its pending request).
func (rt *Runtime) Interrupt(h *Handle) { rt.k.Interrupt(h) }

// Close stops h and its subtree, leaf first.
func (rt *Runtime) Close(h *Handle, opts *CloseOptions) { rt.k.Close(h, opts) }

// Resume delivers answer to the deepest suspended handle waiting on it;
// the halted turns continue (Wait on the top-level handle for the result).
func (rt *Runtime) Resume(answer tn.Answer) error {
	_, err := rt.k.Resume(answerToCore(answer))
	return err
}

// List is a read-only row for every handle under Root.
func (rt *Runtime) List() []HandleView { return rt.k.List() }

// Inspect is h's read-only row.
func (rt *Runtime) Inspect(h *Handle) HandleView { return rt.k.Inspect(h) }

// StateOf is h's state.
func (rt *Runtime) StateOf(h *Handle) State { return rt.k.StateOf(h) }

// InboxLen is h's inbox depth.
func (rt *Runtime) InboxLen(h *Handle) int { return rt.k.InboxLen(h) }

// PoolTokens is h's remaining token pool.
func (rt *Runtime) PoolTokens(h *Handle) int64 { return rt.k.PoolTokens(h) }

// UsageTokens is h's subtree token usage (the ledger).
func (rt *Runtime) UsageTokens(h *Handle) int { return rt.k.UsageTokens(h) }

// MaxObservedConcurrentTurns is the most model calls in flight at once.
func (rt *Runtime) MaxObservedConcurrentTurns() int { return rt.k.MaxObservedConcurrentTurns() }

// taskTool is the "task" tool the kernel gives parent for team (the
// port's tests read its description).
func (rt *Runtime) taskTool(parent *Handle, team []string) tn.Tool {
	return toolFromCore(rt.k.TaskTool(parent, team))
}
