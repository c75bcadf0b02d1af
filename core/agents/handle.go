package agents

import (
	"context"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
)

// Handle is a live agent in a Runtime's tree. Its fields are guarded by the
// runtime's mutex; read them through Runtime.Inspect. Handles are
// capabilities: the spawner alone receives the new handle.
type Handle struct {
	// ID is the parent-scoped id: root/support.1/billing.1.
	ID string

	def    Def
	parent *Handle
	path   []string // agent names from the top-level agent down

	state    State
	inbox    []InboxItem
	drained  []InboxItem // taken by the running turn; restored if it aborts
	children []*Handle

	pool      pool
	eff       eff
	spawnedAt time.Time

	usageTokens int // the subtree's tokens (the ledger)
	turnsTotal  int

	cancel     context.CancelCauseFunc
	inFlight   bool // a turn is running (also while an inline WaitFor answers)
	closing    bool // a Close has begun: later Closes return at once
	waiters    []chan TaskResult
	wakeQueue  []string
	taskKey    string // set when spawned by a task call: re-attachment key
	boundReq   string // the request id this handle's suspension left in its parent's transcript
	lastResult *TaskResult

	policy     *approval.Policy // approval rules and grants, made on first use (policyFor)
	halt       *halt            // the halted turn, kept until it is resumed
	flow       *streamFlow      // the streamed turn's order of events (drive; rt.mu)
	pendingReq *core.Request    // what this handle presents upward while suspended

	runningChildren int
	seq             int
	depth           int
}

// halt is a turn stopped on a suspension: its transcript (ending in the
// placeholder result of the waiting call) and the request in it, which is
// what core.Client.RunWithAnswer needs to continue it.
type halt struct {
	messages []any
	request  core.Request
}

type pool struct {
	tokens    int64
	toolCalls int64
	children  int
}

type eff struct {
	maxTurns      int
	maxConcurrent int
	maxDepth      int
	maxWall       time.Duration
}

func orInt(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// newHandle builds a handle and carves its budget: every pool is
// min(own, parent's remaining).
func (rt *Runtime) newHandle(id string, def Def, parent *Handle) *Handle {
	h := &Handle{ID: id, def: def, parent: parent, state: StateIdle, spawnedAt: rt.clock.Now()}
	pTok, pCalls := Unlimited, Unlimited
	if parent != nil {
		h.depth = parent.depth + 1
		pTok, pCalls = parent.pool.tokens, parent.pool.toolCalls
		if parent.parent != nil {
			h.path = append(append([]string(nil), parent.path...), def.Name)
		} else {
			h.path = []string{def.Name}
		}
	}
	own := Budget{}
	if def.Budget != nil {
		own = *def.Budget
	}
	tok, calls := pTok, pCalls
	if own.MaxTokens > 0 && own.MaxTokens < tok {
		tok = own.MaxTokens
	}
	if own.MaxToolCalls > 0 && own.MaxToolCalls < calls {
		calls = own.MaxToolCalls
	}
	kids := int(Unlimited)
	if own.MaxChildren > 0 {
		kids = own.MaxChildren
	}
	h.pool = pool{tokens: tok, toolCalls: calls, children: kids}
	h.eff = eff{
		maxTurns:      orInt(own.MaxTurns, 6),
		maxConcurrent: orInt(own.MaxConcurrent, 8),
		maxDepth:      carveDepth(own.MaxDepth, parent),
		maxWall:       own.MaxWall,
	}
	return h
}

// carveDepth is a handle's depth cap: a top-level agent's own (default 3);
// below it, the parent's, which a child may lower but never raise.
func carveDepth(own int, parent *Handle) int {
	if parent == nil || parent.parent == nil {
		return orInt(own, 3)
	}
	if own > 0 && own < parent.eff.maxDepth {
		return own
	}
	return parent.eff.maxDepth
}

// mergeBudget overlays over's non-zero fields onto base.
func mergeBudget(base *Budget, over Budget) Budget {
	out := Budget{}
	if base != nil {
		out = *base
	}
	set := func(dst *int, v int) {
		if v != 0 {
			*dst = v
		}
	}
	set(&out.MaxTurns, over.MaxTurns)
	set(&out.MaxChildren, over.MaxChildren)
	set(&out.MaxConcurrent, over.MaxConcurrent)
	set(&out.MaxDepth, over.MaxDepth)
	if over.MaxTokens != 0 {
		out.MaxTokens = over.MaxTokens
	}
	if over.MaxToolCalls != 0 {
		out.MaxToolCalls = over.MaxToolCalls
	}
	if over.MaxWall != 0 {
		out.MaxWall = over.MaxWall
	}
	return out
}

// budgetRefusalLocked walks the live ancestor chain (the carve alone misses
// siblings' spending) and names the first exhausted limit, or "".
func (rt *Runtime) budgetRefusalLocked(h *Handle) string {
	now := rt.clock.Now()
	for a := h; a != nil; a = a.parent {
		switch {
		case a.pool.tokens <= 0:
			return LimitMaxTokens
		case a.pool.toolCalls <= 0:
			return LimitMaxToolCalls
		case a.eff.maxWall > 0 && now.Sub(a.spawnedAt) >= a.eff.maxWall:
			return LimitMaxWallMs
		}
	}
	return ""
}

// rollupLocked charges tokens and tool calls to h and every ancestor.
func (rt *Runtime) rollupLocked(h *Handle, tokens, toolCalls int) {
	for p := h; p != nil; p = p.parent {
		p.usageTokens += tokens
		p.pool.tokens -= int64(tokens)
		p.pool.toolCalls -= int64(toolCalls)
	}
}
