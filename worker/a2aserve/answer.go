package a2aserve

import (
	"errors"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/runs"
)

// by is who answered, in the run's answer event and its record.
const by = "a2a"

// answer is a message to task id: the answer to the request the task
// waits on, recorded through the run's single-use answers (runs.Answer)
// before it takes effect. A task that does not wait (it works, or has
// ended), a request answered already (by another message, or its
// approval link), or an answer that does not fit the request is a
// JSON-RPC error, and nothing runs.
func (c *call) answer(store worker.RunStore, msg gjson.Result, id string, stream bool) {
	ctx := c.r.Context()
	t, ok := c.loadTask(store, id)
	if !ok {
		return
	}
	if cid := msg.Get("contextId").String(); cid != "" && cid != t.contextID {
		c.fail(a2a.CodeInvalidParams, "Invalid params: the message's contextId is not task "+t.id+"'s ("+t.contextID+")")
		return
	}
	if !c.waiting(t) {
		return
	}
	p := t.public.Get("pending")
	d, rerr := decisionOf(msg, p.Get("kind").String())
	if rerr != nil {
		writeError(c.w, c.id, rerr)
		return
	}
	// The events so far: the response follows what the answer sets off.
	after, err := eventCount(ctx, store, t.id)
	if err != nil {
		c.internal(err)
		return
	}
	if !c.record(t, p.Get("id").String(), d, a2a.CodeUnsupportedOperation) {
		return
	}
	t.public = gjson.Parse(`{"status":"running"}`)
	c.respond(store, t, after, stream)
}

// waiting reports whether t waits for an answer, answering -32004 when it
// does not.
func (c *call) waiting(t *task) bool {
	switch t.status() {
	case "pending":
		return true
	case "done", "error":
		c.fail(a2a.CodeUnsupportedOperation, "Unsupported operation: task "+t.id+" has ended ("+t.state()+") and takes no more messages; nothing ran. Send a new message (with its contextId to go on with the conversation)")
	default:
		c.fail(a2a.CodeUnsupportedOperation, "Unsupported operation: task "+t.id+" is working; it takes a message only while it waits for input (input-required); nothing ran")
	}
	return false
}

// record answers request req of task t with d. A decision that does not
// fit the request is -32602; a request answered before is code (with the
// standing decision); it reports whether this answer was recorded.
func (c *call) record(t *task, req string, d runs.Decision, code int) bool {
	res, err := runs.Answer(c.h, c.r.Context(), t.id, req, d, by)
	if refused, ok := errors.AsType[*runs.RefusedAnswer](err); ok {
		c.fail(a2a.CodeInvalidParams, "Invalid params: "+refused.Message)
		return false
	}
	if err != nil {
		c.internal(err)
		return false
	}
	if !res.Won {
		standing := gjson.GetBytes(res.Decision, "decision").String()
		if standing == "" {
			standing = "unknown"
		}
		c.fail(code, "the request of task "+t.id+" was answered already (decision: "+standing+"); nothing ran")
		return false
	}
	return true
}

// cancelTask is CancelTask. A task waiting for input is cancelled by
// declining its request (the reason: the request's metadata.reason, else
// that the client cancelled it): the run goes on as after any decline —
// the model reads the refusal and answers — and the task ends completed
// with that answer. A task that works or has ended cannot be cancelled
// (-32002): a run is not cut off between its journal's steps.
func (c *call) cancelTask() {
	store, ok := c.store()
	if !ok {
		return
	}
	t, ok := c.taskParam(store)
	if !ok {
		return
	}
	if t.status() != "pending" {
		c.fail(a2a.CodeTaskNotCancelable, "Task not cancelable: task "+t.id+" is "+t.state()+"; only a task waiting for input is, by declining its request")
		return
	}
	reason := c.params.Get("metadata.reason").String()
	if reason == "" {
		reason = "the A2A client cancelled the task"
	}
	if !c.record(t, t.public.Get("pending.id").String(), runs.Decision{Ok: false, Reason: reason}, a2a.CodeTaskNotCancelable) {
		return
	}
	if t, ok = c.loadTask(store, t.id); ok {
		c.reply(t.json(nil))
	}
}

// decisionOf reads the answer a message carries to a request of kind:
// its first data part with "approved" or "outcome" —
//
//	{"approved": true}                      approve
//	{"approved": true, "args": {…}}         approve, run with these arguments
//	{"approved": false, "reason": "…"}      decline (the reason: else the text)
//	{"outcome": "happened", "output": "…"}  a lost call happened (outcome_unknown)
//	{"outcome": "rerun"}                    run it again
//
// — else its text, when it is one word: approve/approved/yes, or
// decline/declined/no. Anything else is -32602 saying what to send.
func decisionOf(msg gjson.Result, kind string) (runs.Decision, *a2a.RPCError) {
	var data gjson.Result
	var texts []string
	msg.Get("parts").ForEach(func(_, p gjson.Result) bool {
		k := p.Get("kind").String()
		if d := p.Get("data"); !data.Exists() && d.IsObject() && (k == "" || k == "data") && (d.Get("approved").Exists() || d.Get("outcome").Exists()) {
			data = d
		}
		if t := p.Get("text"); t.Type == gjson.String && (k == "" || k == "text") {
			texts = append(texts, t.String())
		}
		return true
	})
	text := strings.TrimSpace(strings.Join(texts, "\n"))
	bad := func(why string) (runs.Decision, *a2a.RPCError) {
		return runs.Decision{}, &a2a.RPCError{Code: a2a.CodeInvalidParams, Message: "Invalid params: " + why}
	}
	if !data.Exists() {
		switch strings.ToLower(strings.TrimRight(text, ".!")) {
		case "approve", "approved", "yes":
			return runs.Decision{Ok: true}, nil
		case "decline", "declined", "no":
			return runs.Decision{Ok: false}, nil
		}
		if kind == "outcome_unknown" {
			return bad(`the task asks whether a call happened: answer with a data part {"outcome": "happened", "output": "…"}, {"outcome": "rerun"} or {"approved": false, "reason": "…"}`)
		}
		return bad(`the task waits for an approval: answer with a data part {"approved": true}, {"approved": true, "args": {…}} or {"approved": false, "reason": "…"} (or the text "approve" or "decline")`)
	}
	d := runs.Decision{Ok: true}
	if a := data.Get("approved"); a.Exists() {
		if a.Type != gjson.True && a.Type != gjson.False {
			return bad(`"approved" must be true or false`)
		}
		d.Ok = a.Bool()
	}
	var ok bool
	if d.Reason, ok = stringField(data, "reason"); !ok {
		return bad(`"reason" must be a string`)
	}
	if d.Outcome, ok = stringField(data, "outcome"); !ok {
		return bad(`"outcome" must be a string`)
	}
	if d.Output, ok = stringField(data, "output"); !ok {
		return bad(`"output" must be a string`)
	}
	if d.Reason == "" && !d.Ok {
		d.Reason = text
	}
	if a := data.Get("args"); a.Exists() {
		if !a.IsObject() {
			return bad(`"args" must be an object: the arguments to run the call with`)
		}
		args, err := jsonx.DecodeObject([]byte(a.Raw))
		if err != nil {
			return bad(`"args": ` + err.Error())
		}
		d.Args = args
	}
	return d, nil
}

// stringField reads a string member of obj: "" when absent, not ok when
// it is not a string.
func stringField(obj gjson.Result, name string) (string, bool) {
	v := obj.Get(name)
	return v.String(), !v.Exists() || v.Type == gjson.String
}
