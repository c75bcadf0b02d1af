//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strconv"
	"sync"
	"syscall/js"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Approval rules, grants and the record in the JS API (issue 32):
//
//	createToolkit({approvalRules, onDecision})  rules (an array, or its JSON
//	                                             text); onDecision(entryJSON)
//	                                             for each decision, chained
//	tk.decisions()                   Promise<string>  the record as JSON Lines
//	tk.decisionsHead()               Promise<string>  its last hash
//	tk.grants(conversation)          Promise<string>  the conversation's grants, JSON
//	tk.revoke(conversation, id, approver?) Promise<string|null> the revocation's entry
//	api.verifyDecisions(jsonl, head?) Promise<string>  {"ok", "count", "head"} or
//	                                                  {"ok": false, "index", "seq", "error"}
//
// A toolkit keeps its record (approval.Log) for its lifetime: every run
// made with it, in every conversation, adds its decisions in order.

// toolkitRecords maps each toolkit to its record.
var (
	toolkitRecordsMu sync.Mutex
	toolkitRecords   = map[*core.Toolkit]*approval.Log{}
)

// approvalOptions reads approvalRules and onDecision into opts; the
// record is kept once the toolkit exists (rememberRecord).
func approvalOptions(o js.Value, opts *core.Options) (*approval.Log, error) {
	log := &approval.Log{}
	policy := &approval.Policy{}
	if o.Type() == js.TypeObject && !js.Global().Get("Array").Call("isArray", o).Bool() {
		if r := o.Get("approvalRules"); present(r) {
			text := ""
			if r.Type() == js.TypeString {
				text = r.String()
			} else {
				var err error
				if text, err = jsonOf(r); err != nil {
					return nil, fmt.Errorf("createToolkit: approvalRules: %w", err)
				}
			}
			rules, err := approval.Parse([]byte(text))
			if err != nil {
				return nil, fmt.Errorf("createToolkit: %w", err)
			}
			policy.Rules = rules
		}
		if fn := o.Get("onDecision"); isFunc(fn) {
			policy.OnDecision = func(e approval.Entry) {
				e = log.Add(e)
				_, _ = call(fn, string(e.AppendJSON(nil))) // a throwing listener changes nothing
			}
		}
	}
	if policy.OnDecision == nil {
		policy.OnDecision = func(e approval.Entry) { log.Add(e) }
	}
	opts.Approvals = policy
	return log, nil
}

func rememberRecord(tk *core.Toolkit, log *approval.Log) {
	toolkitRecordsMu.Lock()
	if log == nil {
		delete(toolkitRecords, tk)
	} else {
		toolkitRecords[tk] = log
	}
	toolkitRecordsMu.Unlock()
}

func recordOf(tk *core.Toolkit) *approval.Log {
	toolkitRecordsMu.Lock()
	defer toolkitRecordsMu.Unlock()
	if log := toolkitRecords[tk]; log != nil {
		return log
	}
	return &approval.Log{}
}

// approvalMethods adds the toolkit handle's methods of the record and the
// grants.
func approvalMethods(method func(string, func([]js.Value) (any, error)), tk *core.Toolkit) {
	method("decisions", func([]js.Value) (any, error) {
		return string(approval.AppendJSONL(nil, recordOf(tk).Entries())), nil
	})
	method("decisionsHead", func([]js.Value) (any, error) { return recordOf(tk).Head(), nil })
	method("grants", func(args []js.Value) (any, error) {
		b := []byte{'['}
		for i, g := range tk.Approvals().Grants(jsString(argAt(args, 0))) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = jsonx.AppendString(b, g.ID)
			b = append(b, `,"tool":`...)
			b = jsonx.AppendString(b, g.Tool)
			b = append(b, `,"scope":`...)
			b = jsonx.AppendString(b, g.Scope)
			if g.Scope == approval.GrantArgs {
				b = append(append(b, `,"args":`...), g.Args...)
			}
			b = append(b, `,"approver":`...)
			b = append(jsonx.AppendString(b, g.Approver), '}')
		}
		return string(append(b, ']')), nil
	})
	method("revoke", func(args []js.Value) (any, error) {
		id := jsString(argAt(args, 1))
		if _, ok := tk.Approvals().Revoke(jsString(argAt(args, 0)), id, jsString(argAt(args, 2)), approval.FromTab); !ok {
			return nil, nil
		}
		entries := recordOf(tk).Entries() // the revocation, as OnDecision chained it
		for i := len(entries) - 1; i >= 0; i-- {
			if e := entries[i]; e.Decision == approval.Revoked && e.Request == id {
				return string(e.AppendJSON(nil)), nil
			}
		}
		return nil, errors.New("revoke: the record lost the revocation")
	})
}

// verifyDecisions is api.verifyDecisions(jsonl, head?): {"ok", "count",
// "head", "index"?, "seq"?, "error"?}.
func verifyDecisions(args []js.Value) (any, error) {
	entries, err := approval.ParseJSONL([]byte(jsString(argAt(args, 0))))
	if err == nil {
		err = approval.Verify(entries, jsString(argAt(args, 1)))
	}
	b := append([]byte(`{"ok":`), strconv.FormatBool(err == nil)...)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(len(entries)), 10)
	if n := len(entries); n > 0 {
		b = append(b, `,"head":`...)
		b = jsonx.AppendString(b, entries[n-1].Hash)
	}
	if ve, ok := err.(*approval.VerifyError); ok {
		b = append(b, `,"index":`...)
		b = strconv.AppendInt(b, int64(ve.Index), 10)
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, int64(ve.Seq), 10)
	}
	if err != nil {
		b = append(b, `,"error":`...)
		b = jsonx.AppendString(b, err.Error())
	}
	return string(append(b, '}')), nil
}

// withConversation names the conversation a run belongs to, when the JS
// call gave one.
func withConversation(ctx context.Context, v js.Value) context.Context {
	if v.Type() == js.TypeString && v.String() != "" {
		return approval.WithConversation(ctx, v.String())
	}
	return ctx
}
