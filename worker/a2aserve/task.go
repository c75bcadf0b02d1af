package a2aserve

import (
	"context"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/worker"
)

// task is an A2A task: a durable run that SendMessage started, as its run
// store keeps it.
type task struct {
	id        string // the run's id
	contextID string
	skill     string
	agent     string       // the AGENTS agent it runs, "" for the Worker's agent
	public    gjson.Result // the run's public state (GET /v1/runs/{id})
}

// product is what a task's run keeps of it (runs.Begin's Product):
// {"a2a": {"skill", "contextId"?}}. The first task of a conversation has
// no contextId: its own id names the conversation (conversation.go).
func product(skill, contextID string) []byte {
	ctx := ""
	if contextID != "" {
		ctx = `,"contextId":` + q(contextID)
	}
	return []byte(`{"a2a":{"skill":` + q(skill) + ctx + `}}`)
}

// loadTask reads task id: nil when there is none (a malformed id, no such
// run, or a run no A2A message started).
func loadTask(ctx context.Context, store worker.RunStore, id string) (*task, error) {
	if !isID(id, "run_") {
		return nil, nil
	}
	rec, found, err := store.Get(ctx, id, "")
	if err != nil || !found {
		return nil, err
	}
	meta := gjson.ParseBytes(rec.Meta)
	p := meta.Get("product.a2a")
	if !p.IsObject() {
		return nil, nil
	}
	t := &task{id: id, contextID: p.Get("contextId").String(), skill: p.Get("skill").String(), agent: meta.Get("agent").String(), public: gjson.ParseBytes(rec.Public)}
	if t.contextID == "" {
		t.contextID = "ctx_" + id[len("run_"):]
	}
	return t, nil
}

// isID reports whether s is prefix and 32 lower-case hex digits: a run's
// id (run_), a conversation's (ctx_).
func isID(s, prefix string) bool {
	if len(s) != len(prefix)+32 || !strings.HasPrefix(s, prefix) {
		return false
	}
	for _, c := range s[len(prefix):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// status is the run's status: running, pending, done or error.
func (t *task) status() string { return t.public.Get("status").String() }

// state is the task's A2A state, in a2a's words (a2a.StateOf maps a run's
// end as the Go port's Serve does).
func (t *task) state() string {
	switch t.status() {
	case "pending":
		return a2a.StateOf("pending", &tool.Request{Kind: t.public.Get("pending.kind").String()}, nil)
	case "done":
		return a2a.StateCompleted
	case "error":
		return a2a.StateFailed
	}
	return a2a.StateWorking
}

// json is the task as A2A 1.0's JSON writes it. done is the run's done
// event (its toolCalls become the metadata), nil when not at hand.
func (t *task) json(done []byte) []byte {
	state := t.state()
	artifacts := ""
	if state == a2a.StateCompleted {
		artifacts = `,"artifacts":[` + artifact(t.public.Get("text").String()) + `]`
	}
	return []byte(`{"id":` + q(t.id) + `,"contextId":` + q(t.contextID) + `,"status":` + t.statusJSON(state) +
		artifacts + `,"metadata":` + t.metaJSON(state, done) + `}`)
}

// statusJSON is the task's status: {"state", "timestamp"?, "message"?} —
// the question of a task that waits for input, the error of a failed one.
func (t *task) statusJSON(state string) string {
	more := ""
	if at := t.public.Get("progressAt").String(); at != "" {
		more = `,"timestamp":` + q(at)
	}
	switch state {
	case a2a.StateInputRequired, a2a.StateAuthRequired:
		p := t.public.Get("pending")
		more += `,"message":` + t.message(p.Get("id").String(), askText(p), p.Raw)
	case a2a.StateFailed:
		more += `,"message":` + t.message("err_"+t.id, t.public.Get("error.message").String(), "")
	}
	return `{"state":` + q(a2a.WireState(state)) + more + `}`
}

// metaJSON is the task's metadata: its skill, its run's event log and,
// once it completed, the tool calls as they ran (done's toolCalls) and the
// limit a run stopped at.
func (t *task) metaJSON(state string, done []byte) string {
	more := ""
	if state == a2a.StateCompleted {
		if calls := gjson.GetBytes(done, "toolCalls"); calls.IsArray() {
			more = `,"toolCalls":` + calls.Raw
		}
		if limit := t.public.Get("limit").String(); limit != "" {
			more += `,"limit":` + q(limit)
		}
	}
	return `{"skill":` + q(t.skill) + `,"events":` + q("/v1/runs/"+t.id+"/events") + more + `}`
}

// artifact is a completed task's answer: the run's final text.
func artifact(text string) string {
	return `{"artifactId":"answer","name":"answer","parts":[{"text":` + q(text) + `}]}`
}

// message is a message of the agent in the task: its text and, when
// given, a data part (JSON text).
func (t *task) message(id, text, data string) string {
	if data != "" {
		data = `,{"data":` + data + `,"mediaType":"application/json"}`
	}
	return `{"messageId":` + q("msg_"+id) + `,"role":"ROLE_AGENT","taskId":` + q(t.id) + `,"contextId":` + q(t.contextID) +
		`,"parts":[{"text":` + q(text) + `}` + data + `]}`
}

// askText is the question of a task waiting for input: the request's
// prompt and how to answer it (its data part is the run's pending
// request: {id, kind, tool, args, path?, approveURL, expiresAt, request}).
func askText(p gjson.Result) string {
	text := p.Get("request.prompt").String()
	if text == "" {
		text = "The agent asks to run " + p.Get("tool").String() + " " + p.Get("args").Raw + "."
	}
	if p.Get("kind").String() == "outcome_unknown" {
		return text + "\n\nAnswer with a message to this task carrying a data part: {\"outcome\": \"happened\", \"output\": \"…\"} (it ran; what it returned), {\"outcome\": \"rerun\"} (run it again), or {\"approved\": false, \"reason\": \"…\"} (it did not happen) — or open approveURL."
	}
	return text + "\n\nAnswer with a message to this task carrying a data part: {\"approved\": true}, {\"approved\": true, \"args\": {…}} (run it with these arguments) or {\"approved\": false, \"reason\": \"…\"} — or open approveURL. CancelTask declines."
}
