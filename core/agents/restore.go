package agents

import (
	"encoding/json"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// RestoreRuntime builds a runtime from a Snapshot, in this process or
// another: opts supplies what a snapshot cannot hold (the Registry with its
// tools and WaitFors, the model, the store). Every agent the snapshot names
// must be in opts.Registry. A restored halted tree resumes with Resume.
//
//	state, _ := rt.Snapshot()          // before the tab reloads
//	rt2, err := agents.RestoreRuntime(opts, state)
//	res, err := rt2.Resume(answer)     // continues the halted tree
func RestoreRuntime(opts Options, snapshot []byte) (*Runtime, error) {
	// gjson reads a truncated document as far as it goes ("{" is an empty
	// object), so the bytes are checked whole first; the depth bound keeps
	// the checker's recursion within the stack (see jsonx.MaxDepth) while
	// passing every transcript core accepted, wrapped in the snapshot.
	if jsonx.CheckDepth(snapshot, jsonx.MaxDepth+2*jsonx.WrapSlack) != nil || !gjson.ValidBytes(snapshot) {
		return nil, errors.New("agents: restore: the snapshot is not valid JSON (cut short, edited, or nested past jsonx.MaxDepth)")
	}
	doc := gjson.ParseBytes(snapshot)
	if !doc.IsObject() {
		return nil, fmt.Errorf("agents: restore: the snapshot is not a JSON object")
	}
	if v := doc.Get("version").Int(); v != snapshotVersion {
		return nil, fmt.Errorf("agents: restore: snapshot version %d, want %d", v, snapshotVersion)
	}
	rootSeq, hs := doc.Get("rootSeq").Int(), doc.Get("handles")
	if rootSeq < 0 || hs.Exists() && !hs.IsArray() {
		return nil, errors.New("agents: restore: a negative rootSeq, or handles that are not an array")
	}
	rt := NewRuntime(opts)
	rt.Root.seq = int(rootSeq)
	byID := map[string]*Handle{rt.Root.ID: rt.Root}
	var err error
	doc.Get("handles").ForEach(func(_, v gjson.Result) bool {
		err = rt.restoreHandle(v, byID)
		return err == nil
	})
	if err != nil {
		return nil, fmt.Errorf("agents: restore: %w", err)
	}
	return rt, nil
}

// restoreHandle rebuilds one handle under its (already restored) parent.
func (rt *Runtime) restoreHandle(v gjson.Result, byID map[string]*Handle) error {
	var sh snapHandle
	var history, haltMsgs []json.RawMessage
	var haltReq, pending, resPending *core.Request
	var res *TaskResult
	var inbox, drained []snapInboxItem
	err := jsonx.ReadObject(v, "handle", false,
		jsonx.Field{Name: "id", Read: jsonx.String(&sh.ID)},
		jsonx.Field{Name: "agent", Read: jsonx.String(&sh.Agent)},
		jsonx.Field{Name: "parent", Read: jsonx.String(&sh.Parent)},
		jsonx.Field{Name: "state", Read: jsonx.String(&sh.State)},
		jsonx.Field{Name: "seq", Read: jsonx.Int(&sh.Seq)},
		jsonx.Field{Name: "taskKey", Read: jsonx.String(&sh.TaskKey)},
		jsonx.Field{Name: "boundRequest", Read: jsonx.String(&sh.BoundRequest)},
		jsonx.Field{Name: "turns", Read: jsonx.Int(&sh.Turns)},
		jsonx.Field{Name: "tokens", Read: jsonx.Int(&sh.Tokens)},
		jsonx.Field{Name: "poolTokens", Read: jsonx.Int64(&sh.PoolTokens)},
		jsonx.Field{Name: "poolToolCalls", Read: jsonx.Int64(&sh.PoolToolCalls)},
		jsonx.Field{Name: "poolChildren", Read: jsonx.Int(&sh.PoolChildren)},
		jsonx.Field{Name: "maxTurns", Read: jsonx.Int(&sh.MaxTurns)},
		jsonx.Field{Name: "maxConcurrent", Read: jsonx.Int(&sh.MaxConcurrent)},
		jsonx.Field{Name: "maxDepth", Read: jsonx.Int(&sh.MaxDepth)},
		jsonx.Field{Name: "maxWallMs", Read: jsonx.Int64(&sh.MaxWallMs)},
		jsonx.Field{Name: "spawnedAtMs", Read: jsonx.Int64(&sh.SpawnedAtMs)},
		jsonx.Field{Name: "inbox", Read: readInbox(&inbox)},
		jsonx.Field{Name: "drained", Read: readInbox(&drained)},
		jsonx.Field{Name: "wakeQueue", Read: func(v gjson.Result, _ string) error {
			v.ForEach(func(_, e gjson.Result) bool { sh.WakeQueue = append(sh.WakeQueue, e.String()); return true })
			return nil
		}},
		jsonx.Field{Name: "history", Read: jsonx.RawList(&history)},
		jsonx.Field{Name: "halt", Read: jsonx.Object(false,
			jsonx.Field{Name: "messages", Read: jsonx.RawList(&haltMsgs)},
			jsonx.Field{Name: "request", Read: readRequest(&haltReq)})},
		jsonx.Field{Name: "pending", Read: readRequest(&pending)},
		jsonx.Field{Name: "result", Read: func(v gjson.Result, path string) error {
			res = &TaskResult{}
			return jsonx.ReadObject(v, path, false,
				jsonx.Field{Name: "text", Read: jsonx.String(&res.Text)},
				jsonx.Field{Name: "isError", Read: jsonx.Bool(&res.IsError)},
				jsonx.Field{Name: "status", Read: jsonx.String(&res.Status)},
				jsonx.Field{Name: "limit", Read: jsonx.String(&res.Limit)},
				jsonx.Field{Name: "pending", Read: readRequest(&resPending)},
				jsonx.Field{Name: "turns", Read: jsonx.Int(&res.Turns)},
				jsonx.Field{Name: "totalTokens", Read: jsonx.Int(&res.TotalTokens)})
		}},
	)
	if err != nil {
		return err
	}
	parent, ok := byID[sh.Parent]
	if !ok {
		return fmt.Errorf("handle %s: parent %q is not restored before it", sh.ID, sh.Parent)
	}
	def, ok := rt.opts.Registry[sh.Agent]
	if !ok {
		return fmt.Errorf("handle %s: agent %q is not in the registry", sh.ID, sh.Agent)
	}
	h := rt.newHandle(sh.ID, def, parent)
	h.state, h.seq, h.taskKey, h.boundReq = State(sh.State), sh.Seq, sh.TaskKey, sh.BoundRequest
	h.turnsTotal, h.usageTokens = sh.Turns, sh.Tokens
	h.pool = pool{tokens: sh.PoolTokens, toolCalls: sh.PoolToolCalls, children: sh.PoolChildren}
	h.eff = eff{maxTurns: sh.MaxTurns, maxConcurrent: sh.MaxConcurrent, maxDepth: sh.MaxDepth, maxWall: time.Duration(sh.MaxWallMs) * time.Millisecond}
	h.spawnedAt = time.UnixMilli(sh.SpawnedAtMs)
	h.wakeQueue = sh.WakeQueue
	for _, it := range inbox {
		h.inbox = append(h.inbox, InboxItem(it))
	}
	for _, it := range drained {
		h.drained = append(h.drained, InboxItem(it))
	}
	switch h.state {
	case StateIdle, StateSuspended, StateClosed:
	default:
		return fmt.Errorf("handle %s: state %q cannot be restored", sh.ID, sh.State)
	}
	if h.state == StateSuspended && (haltReq == nil || len(haltMsgs) == 0) {
		return fmt.Errorf("handle %s: suspended without a halted turn", sh.ID)
	}
	// Each id once, and one segment under its parent's (Runtime.Handle
	// follows ids down the tree).
	if _, dup := byID[sh.ID]; dup || !restoredShapeOK(sh, parent) {
		return errors.New("handle " + sh.ID + ": " + restoreShapeRule)
	}
	if haltReq != nil {
		h.halt = &halt{messages: anyMessages(haltMsgs), request: *haltReq}
	}
	h.pendingReq = pending
	if res != nil {
		res.Pending = resPending
		h.lastResult = res
	}
	if len(history) > 0 {
		if err := rt.store.Save(h.ID, anyMessages(history)); err != nil {
			return fmt.Errorf("handle %s: save transcript: %w", sh.ID, err)
		}
	}
	parent.children = append(parent.children, h)
	byID[h.ID] = h
	return nil
}

// readInbox reads a list of inbox items.
func readInbox(dst *[]snapInboxItem) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		var err error
		v.ForEach(func(_, e gjson.Result) bool {
			var it snapInboxItem
			err = jsonx.ReadObject(e, path, false,
				jsonx.Field{Name: "from", Read: jsonx.String(&it.From)},
				jsonx.Field{Name: "channel", Read: jsonx.String(&it.Channel)},
				jsonx.Field{Name: "text", Read: jsonx.String(&it.Text)})
			*dst = append(*dst, it)
			return err == nil
		})
		return err
	}
}

// readRequest reads a core.Request with its own (gjson) decoder.
func readRequest(dst **core.Request) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		if v.Type == gjson.Null {
			return nil
		}
		var req core.Request
		if err := req.UnmarshalJSON([]byte(v.Raw)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		*dst = &req
		return nil
	}
}

func anyMessages(raw []json.RawMessage) []any {
	out := make([]any, len(raw))
	for i, m := range raw {
		out[i] = m
	}
	return out
}

// restoreShapeRule is what restoredShapeOK checks, as one message: each
// formatted check of its own costs the Worker's wasm budget.
const restoreShapeRule = "edited or corrupt: want an id that is a new segment under its parent's, " +
	"a tree no deeper than MaxTreeDepth (64), maxTurns, maxConcurrent and maxDepth of at least 1, " +
	"no negative count, and maxWallMs within MaxWallMsLimit"

// restoredShapeOK refuses what a snapshot can only hold if it was edited:
// an id off its parent's path (Runtime.Handle follows ids), a tree past
// MaxTreeDepth, a zero maxConcurrent (every wake would queue forever) or a
// zero maxTurns or maxDepth (the agent would stop before it starts).
func restoredShapeOK(sh snapHandle, parent *Handle) bool {
	n := len(parent.ID)
	return len(sh.ID) > n+1 && sh.ID[:n] == parent.ID && sh.ID[n] == '/' &&
		strings.IndexByte(sh.ID[n+1:], '/') < 0 && parent.depth < MaxTreeDepth &&
		min(sh.MaxTurns, sh.MaxConcurrent, sh.MaxDepth) >= 1 &&
		min(sh.PoolChildren, sh.Seq, sh.Turns, sh.Tokens) >= 0 &&
		sh.MaxWallMs >= 0 && sh.MaxWallMs <= maxWallMs
}
