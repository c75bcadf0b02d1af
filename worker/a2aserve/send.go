package a2aserve

import (
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/runs"
)

// store is the run store, or a JSON-RPC error when none is bound.
func (c *call) store() (worker.RunStore, bool) {
	var s worker.RunStore
	if runs := c.h.Options().Runs; runs != nil {
		s = runs()
	}
	if s == nil {
		c.fail(a2a.CodeInternalError, "Internal error: this Worker has no "+worker.RunsBinding+" Durable Object binding, which keeps A2A tasks; nothing ran")
		return nil, false
	}
	return s, true
}

// taskParam is the task a GetTask, CancelTask or SubscribeToTask names
// ("id"), or a JSON-RPC error: -32602 for a missing id, -32001 for one no
// task has.
func (c *call) taskParam(store worker.RunStore) (*task, bool) {
	id := c.params.Get("id")
	if id.Type != gjson.String || id.String() == "" {
		c.fail(a2a.CodeInvalidParams, `Invalid params: "id" must be a task's id`)
		return nil, false
	}
	return c.loadTask(store, id.String())
}

func (c *call) loadTask(store worker.RunStore, id string) (*task, bool) {
	t, err := loadTask(c.r.Context(), store, id)
	switch {
	case err != nil:
		c.internal(err)
		return nil, false
	case t == nil:
		c.fail(a2a.CodeTaskNotFound, "Task not found: "+worker.QuoteClip(id))
		return nil, false
	}
	return t, true
}

// sendMessage is SendMessage and, with stream, SendStreamingMessage. A
// message that names a task (taskId) answers its request; any other
// starts a task, in the conversation its contextId names.
func (c *call) sendMessage(stream bool) {
	msg := c.params.Get("message")
	if !msg.IsObject() {
		c.fail(a2a.CodeInvalidParams, `Invalid params: "message" is required`)
		return
	}
	for _, key := range []string{"taskId", "contextId"} {
		if v := msg.Get(key); v.Exists() && v.Type != gjson.String {
			c.fail(a2a.CodeInvalidParams, "Invalid params: message."+key+" must be a string")
			return
		}
	}
	store, ok := c.store()
	if !ok {
		return
	}
	if id := msg.Get("taskId").String(); id != "" {
		c.answer(store, msg, id, stream)
		return
	}
	c.start(store, msg, stream)
}

// start starts a task: a durable run of the message's text by the skill
// it names (the Worker's agent, or a team agent of AGENTS), after the
// conversation's transcript when it names one.
func (c *call) start(store worker.RunStore, msg gjson.Result, stream bool) {
	ctx := c.r.Context()
	cfg, err := c.h.CheckConfig()
	if err != nil {
		c.h.Options().Logf("worker: configuration: %v", err)
		c.fail(a2a.CodeInternalError, "Internal error: the Worker is misconfigured: "+err.Error())
		return
	}
	text := strings.TrimSpace(a2a.MessageText(c.params))
	if text == "" {
		c.fail(a2a.CodeInvalidParams, "Invalid params: the message has no text (or data) part: say what to do in words")
		return
	}
	skill, agent, ok := c.skill(msg)
	if !ok {
		return
	}
	begin := runs.Begin{Origin: worker.OriginOf(c.r), Prompt: text, Agent: agent}
	contextID := msg.Get("contextId").String()
	var root string
	if contextID != "" {
		conv, rerr, err := continueConversation(c.h, ctx, cfg, store, contextID, skill)
		if err != nil {
			c.internal(err)
			return
		}
		if rerr != nil {
			writeError(c.w, c.id, rerr)
			return
		}
		begin.History, root, skill = conv.history, conv.root, conv.skill
	}
	if skill == "" {
		skill = DefaultSkill
	}
	begin.Product = product(skill, contextID)
	id, err := runs.Start(c.h, ctx, begin)
	if err != nil {
		c.internal(err)
		return
	}
	if root != "" {
		if err := store.SetNote(ctx, root, latestNote, []byte(id)); err != nil {
			c.h.Options().Logf("worker: a2a: conversation %s: keep its latest task: %v", contextID, err)
		}
	}
	if contextID == "" {
		contextID = "ctx_" + id[len("run_"):]
	}
	t := &task{id: id, contextID: contextID, skill: skill, agent: agent, public: gjson.Parse(`{"status":"running"}`)}
	c.respond(store, t, 0, stream)
}

// skill reads the skill the request's (or the message's) metadata names:
// "" when it names none (the Worker's agent, or the conversation's).
func (c *call) skill(msg gjson.Result) (skill, agent string, ok bool) {
	s := c.params.Get("metadata.skill")
	if !s.Exists() {
		s = msg.Get("metadata.skill")
	}
	if !s.Exists() {
		return "", "", true
	}
	teams := teamList(c.h)
	names := []string{}
	if !shadowed(teams) {
		names = append(names, DefaultSkill)
		if s.Type == gjson.String && s.String() == DefaultSkill {
			return DefaultSkill, "", true
		}
	}
	for _, d := range teams {
		if s.Type == gjson.String && s.String() == d.Name {
			return d.Name, d.Name, true
		}
		names = append(names, d.Name)
	}
	c.fail(a2a.CodeInvalidParams, "Invalid params: no skill "+worker.QuoteClip(s.String())+"; this agent's skills (its card lists them): "+strings.Join(names, ", "))
	return "", "", false
}

// respond answers a message about task t: with stream, its progress after
// event after as server-sent events; else {"task": …} once it waits for
// input or has ended (within blockFor), or at once when the client asks
// ("returnImmediately", or 0.3's "blocking": false).
func (c *call) respond(store worker.RunStore, t *task, after int, stream bool) {
	ctx := c.r.Context()
	if stream {
		c.newStream(t).run(ctx, store, after)
		return
	}
	conf := c.params.Get("configuration")
	if conf.Get("returnImmediately").Bool() || conf.Get("blocking").Type == gjson.False {
		c.reply(sendResult(t.json(nil)))
		return
	}
	settled, err := follow(ctx, store, t.id, after, blockFor, nil, nil)
	if err != nil {
		if ctx.Err() == nil {
			c.internal(err)
		}
		return
	}
	now, ok := c.loadTask(store, t.id)
	if !ok {
		return
	}
	var done []byte
	if settled != nil && settled.Type == "done" {
		done = settled.Data
	}
	c.reply(sendResult(now.json(done)))
}

// sendResult is SendMessage's result: {"task": …}.
func sendResult(taskJSON []byte) []byte {
	out := append([]byte(`{"task":`), taskJSON...)
	return append(out, '}')
}

// getTask is GetTask: the task as it is now; a completed one with its
// artifact and the tool calls as they ran.
func (c *call) getTask() {
	store, ok := c.store()
	if !ok {
		return
	}
	t, ok := c.taskParam(store)
	if !ok {
		return
	}
	var done []byte
	if t.status() == "done" {
		var err error
		if done, err = doneEvent(c.r.Context(), store, t.id); err != nil {
			c.internal(err)
			return
		}
	}
	c.reply(t.json(done))
}

// subscribe is SubscribeToTask: the task now, then its progress until it
// waits for input or ends. An ended task is -32004, as the A2A SDK's
// server answers: GetTask reads it.
func (c *call) subscribe() {
	store, ok := c.store()
	if !ok {
		return
	}
	t, ok := c.taskParam(store)
	if !ok {
		return
	}
	// Counted, then the task read again: whatever settles it after that
	// read is after the count.
	after, err := eventCount(c.r.Context(), store, t.id)
	if err != nil {
		c.internal(err)
		return
	}
	if t, ok = c.loadTask(store, t.id); !ok {
		return
	}
	if st := t.status(); st == "done" || st == "error" {
		c.fail(a2a.CodeUnsupportedOperation, "Unsupported operation: task "+t.id+" has ended ("+t.state()+"); GetTask reads it")
		return
	}
	c.newStream(t).run(c.r.Context(), store, after)
}
