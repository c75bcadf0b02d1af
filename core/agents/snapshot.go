package agents

import (
	"encoding/json"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// snapshotVersion is the layout version of Snapshot's JSON; RestoreRuntime
// refuses any other.
const snapshotVersion = 1

// ErrBusy is returned by Snapshot while a turn is running: only a settled
// tree (idle, suspended or closed handles) has a consistent state.
var ErrBusy = errors.New("agents: a turn is running")

// snapshotDoc is Snapshot's JSON: every handle in spawn order (parents
// before children), with its committed transcript, its halted turn and
// the Request it presents.
type snapshotDoc struct {
	Version int          `json:"version"`
	RootSeq int          `json:"rootSeq"`
	Handles []snapHandle `json:"handles"`
}

type snapHandle struct {
	ID            string            `json:"id"`
	Agent         string            `json:"agent"`
	Parent        string            `json:"parent"`
	State         string            `json:"state"`
	Seq           int               `json:"seq"`
	TaskKey       string            `json:"taskKey,omitempty"`
	BoundRequest  string            `json:"boundRequest,omitempty"`
	Turns         int               `json:"turns"`
	Tokens        int               `json:"tokens"`
	PoolTokens    int64             `json:"poolTokens"`
	PoolToolCalls int64             `json:"poolToolCalls"`
	PoolChildren  int               `json:"poolChildren"`
	MaxTurns      int               `json:"maxTurns"`
	MaxConcurrent int               `json:"maxConcurrent"`
	MaxDepth      int               `json:"maxDepth"`
	MaxWallMs     int64             `json:"maxWallMs,omitempty"`
	SpawnedAtMs   int64             `json:"spawnedAtMs"`
	Inbox         []snapInboxItem   `json:"inbox,omitempty"`
	Drained       []snapInboxItem   `json:"drained,omitempty"`
	WakeQueue     []string          `json:"wakeQueue,omitempty"`
	History       []json.RawMessage `json:"history,omitempty"`
	Halt          *snapHalt         `json:"halt,omitempty"`
	Pending       *core.Request     `json:"pending,omitempty"`
	Result        *TaskResult       `json:"result,omitempty"`
}

type snapInboxItem struct {
	From    string `json:"from"`
	Channel string `json:"channel"`
	Text    string `json:"text"`
}

type snapHalt struct {
	Messages []json.RawMessage `json:"messages"`
	Request  core.Request      `json:"request"`
}

// Snapshot serializes the tree — every handle's state, budgets, inbox,
// committed transcript, halted turn and pending Request — as JSON, so a
// halted run can be kept (IndexedDB, a Durable Object) and resumed in
// another process with RestoreRuntime. Functions (tools, WaitFor, hooks)
// are not in it: the restoring side supplies them through its Registry.
// It fails with ErrBusy while any turn runs.
func (rt *Runtime) Snapshot() ([]byte, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	doc := snapshotDoc{Version: snapshotVersion, RootSeq: rt.Root.seq}
	var walk func(h *Handle) error
	walk = func(h *Handle) error {
		if h != rt.Root {
			if h.inFlight {
				return fmt.Errorf("%w: %s", ErrBusy, h.ID)
			}
			sh, err := rt.snapHandleLocked(h)
			if err != nil {
				return err
			}
			doc.Handles = append(doc.Handles, sh)
		}
		for _, c := range h.children {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(rt.Root); err != nil {
		return nil, err
	}
	return jsonx.Marshal(doc)
}

func (rt *Runtime) snapHandleLocked(h *Handle) (snapHandle, error) {
	sh := snapHandle{
		ID: h.ID, Agent: h.def.Name, Parent: h.parent.ID, State: string(h.state), Seq: h.seq,
		TaskKey: h.taskKey, BoundRequest: h.boundReq, Turns: h.turnsTotal, Tokens: h.usageTokens,
		PoolTokens: h.pool.tokens, PoolToolCalls: h.pool.toolCalls, PoolChildren: h.pool.children,
		MaxTurns: h.eff.maxTurns, MaxConcurrent: h.eff.maxConcurrent, MaxDepth: h.eff.maxDepth,
		MaxWallMs: h.eff.maxWall.Milliseconds(), SpawnedAtMs: h.spawnedAt.UnixMilli(),
		WakeQueue: h.wakeQueue, Pending: h.pendingReq,
	}
	for _, it := range h.inbox {
		sh.Inbox = append(sh.Inbox, snapInboxItem(it))
	}
	for _, it := range h.drained { // taken by the halted turn; back in the inbox if it is withdrawn
		sh.Drained = append(sh.Drained, snapInboxItem(it))
	}
	history, err := rt.store.Get(h.ID)
	if err != nil {
		return sh, fmt.Errorf("agents: snapshot %s: read transcript: %w", h.ID, err)
	}
	if sh.History, err = rawMessages(history); err != nil {
		return sh, fmt.Errorf("agents: snapshot %s: %w", h.ID, err)
	}
	if h.halt != nil {
		msgs, err := rawMessages(h.halt.messages)
		if err != nil {
			return sh, fmt.Errorf("agents: snapshot %s: %w", h.ID, err)
		}
		sh.Halt = &snapHalt{Messages: msgs, Request: h.halt.request}
	}
	if r := h.lastResult; r != nil {
		res := *r // a copy: the handle's result may be replaced while the snapshot is encoded
		sh.Result = &res
	}
	return sh, nil
}

// rawMessages turns a transcript into JSON messages; core's are already
// json.RawMessage, anything else (a custom store's maps) is encoded.
func rawMessages(msgs []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(msgs))
	for _, m := range msgs {
		switch v := m.(type) {
		case json.RawMessage:
			out = append(out, v)
		case []byte:
			out = append(out, json.RawMessage(v))
		default:
			b, err := jsonx.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("encode message: %w", err)
			}
			out = append(out, b)
		}
	}
	return out, nil
}
