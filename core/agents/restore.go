package agents

import (
	"encoding/json"
	"fmt"
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
	if err := jsonx.CheckDepth(snapshot, jsonx.MaxDepth+2*jsonx.WrapSlack); err != nil {
		return nil, fmt.Errorf("agents: restore: %w", err)
	}
	if !gjson.ValidBytes(snapshot) {
		return nil, fmt.Errorf("agents: restore: the snapshot is not valid JSON (cut short or edited?)")
	}
	doc := gjson.ParseBytes(snapshot)
	if !doc.IsObject() {
		return nil, fmt.Errorf("agents: restore: the snapshot is not a JSON object")
	}
	if v := doc.Get("version").Int(); v != snapshotVersion {
		return nil, fmt.Errorf("agents: restore: snapshot version %d, want %d", v, snapshotVersion)
	}
	rootSeq := doc.Get("rootSeq").Int()
	if rootSeq < 0 {
		return nil, fmt.Errorf("agents: restore: rootSeq %d is negative", rootSeq)
	}
	rt := NewRuntime(opts)
	rt.Root.seq = int(rootSeq)
	byID := map[string]*Handle{rt.Root.ID: rt.Root}
	if hs := doc.Get("handles"); hs.Exists() && !hs.IsArray() {
		return nil, fmt.Errorf("agents: restore: \"handles\" must be an array")
	}
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
	var res *snapResult
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
			res = &snapResult{}
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
	// Ids are parent-scoped paths (Runtime.Handle follows them): one
	// segment under the parent's id, each id once.
	if seg, ok := strings.CutPrefix(sh.ID, parent.ID+"/"); !ok || seg == "" || strings.Contains(seg, "/") {
		return fmt.Errorf("handle %q: its id is not one segment under its parent %q", sh.ID, parent.ID)
	}
	if _, dup := byID[sh.ID]; dup {
		return fmt.Errorf("handle %s: restored twice", sh.ID)
	}
	def, ok := rt.opts.Registry[sh.Agent]
	if !ok {
		return fmt.Errorf("handle %s: agent %q is not in the registry", sh.ID, sh.Agent)
	}
	h := rt.newHandle(sh.ID, def, parent)
	if h.depth > MaxTreeDepth {
		return fmt.Errorf("handle %s: the tree is deeper than %d levels", sh.ID, MaxTreeDepth)
	}
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
	if err := checkRestoredLimits(sh); err != nil {
		return fmt.Errorf("handle %s: %w", sh.ID, err)
	}
	if haltReq != nil {
		h.halt = &halt{messages: anyMessages(haltMsgs), request: *haltReq}
	}
	h.pendingReq = pending
	if res != nil {
		r := TaskResult{Text: res.Text, IsError: res.IsError, Status: res.Status, Limit: res.Limit,
			Pending: resPending, Turns: res.Turns, TotalTokens: res.TotalTokens}
		h.lastResult = &r
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

// checkRestoredLimits refuses caps a snapshot can only hold if it was
// edited: a zero maxConcurrent would queue every wake forever, a zero
// maxTurns or maxDepth would stop the agent before it starts.
func checkRestoredLimits(sh snapHandle) error {
	for _, f := range []struct {
		name string
		v    int
	}{{"maxTurns", sh.MaxTurns}, {"maxConcurrent", sh.MaxConcurrent}, {"maxDepth", sh.MaxDepth}} {
		if f.v < 1 {
			return fmt.Errorf("%s %d: want at least 1", f.name, f.v)
		}
	}
	switch {
	case sh.PoolChildren < 0, sh.Seq < 0, sh.Turns < 0, sh.Tokens < 0:
		return fmt.Errorf("negative count (poolChildren %d, seq %d, turns %d, tokens %d)", sh.PoolChildren, sh.Seq, sh.Turns, sh.Tokens)
	case sh.MaxWallMs < 0 || sh.MaxWallMs > maxWallMs:
		return fmt.Errorf("maxWallMs %d: want 0 to %d", sh.MaxWallMs, int64(maxWallMs))
	}
	return nil
}
