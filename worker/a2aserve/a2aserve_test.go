package a2aserve

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// TestCardNamesTheAgentTeamAndInterface: the card lists the Worker's
// agent (with its tools) and each AGENTS agent as skills, its JSON-RPC
// interface at /a2a, streaming; behind API_TOKEN it declares the bearer
// scheme and is refused without the token.
func TestCardNamesTheAgentTeamAndInterface(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["AGENTS"] = workertest.TeamAgents
		env["API_TOKEN"] = workertest.APIToken
	})
	if rec := hs.Do("GET", CardRoute, ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("card without the token = %d", rec.Code)
	}
	rec := hs.Do("GET", CardRoute, "", "Authorization", "Bearer "+workertest.APIToken)
	card := gjson.Parse(rec.Body.String())
	if rec.Code != http.StatusOK || card.Get("name").String() != CardName {
		t.Fatalf("card = %d %s", rec.Code, rec.Body)
	}
	iface := card.Get("supportedInterfaces.0")
	if iface.Get("url").String() != "http://example.com/a2a" || iface.Get("protocolBinding").String() != "JSONRPC" || iface.Get("protocolVersion").String() != "1.0" {
		t.Fatalf("interface = %s", iface.Raw)
	}
	var ids []string
	for _, s := range card.Get("skills").Array() {
		ids = append(ids, s.Get("id").String())
	}
	if strings.Join(ids, ",") != "agent,support,billing" || !strings.Contains(card.Get("skills.0.description").String(), "refund") {
		t.Fatalf("skills = %s", card.Get("skills").Raw)
	}
	if !card.Get("capabilities.streaming").Bool() || card.Get("securitySchemes.bearer.httpAuthSecurityScheme.scheme").String() != "Bearer" {
		t.Fatalf("card = %s", card.Raw)
	}
	if rec := hs.Do("POST", RPCRoute, `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}`); rec.Code != http.StatusUnauthorized {
		t.Fatalf("JSON-RPC without the token = %d", rec.Code)
	}
}

// TestTaskWithoutApprovalCompletes: a message that needs no approval is a
// completed task with its answer as the artifact, at once (blocking) and
// on GetTask; its contextId names a conversation.
func TestTaskWithoutApprovalCompletes(t *testing.T) {
	hs := newHarness(t, nil)
	task := hs.task(hs.send("hello there", nil))
	if task.Get("status.state").String() != "TASK_STATE_COMPLETED" || answerText(task) != "hello" {
		t.Fatalf("task = %s", task.Raw)
	}
	id := task.Get("id").String()
	if !strings.HasPrefix(id, "run_") || task.Get("contextId").String() != "ctx_"+id[4:] {
		t.Fatalf("ids = %s", task.Raw)
	}
	again := hs.task(hs.rpc("GetTask", map[string]any{"id": id}))
	if answerText(again) != "hello" || again.Get("metadata.toolCalls").Raw != "[]" {
		t.Fatalf("GetTask = %s", again.Raw)
	}
	// The run API sees the same run.
	if !strings.Contains(hs.Do("GET", "/v1/runs/"+id, "").Body.String(), `"status":"done"`) {
		t.Fatal("the task is no durable run")
	}
}

// TestApprovalRoundTrip: "refund order 42" is input-required with the
// request in a data part; approving runs the refund once and completes
// the task; a second answer is refused and runs nothing.
func TestApprovalRoundTrip(t *testing.T) {
	hs := newHarness(t, nil)
	task := hs.task(hs.send("refund order 42", nil))
	if task.Get("status.state").String() != "TASK_STATE_INPUT_REQUIRED" {
		t.Fatalf("task = %s", task.Raw)
	}
	ask := askData(task)
	if ask.Get("tool").String() != "refund" || ask.Get("args").Raw != `{"order":42}` || ask.Get("kind").String() != "approval" ||
		!strings.Contains(ask.Get("approveURL").String(), "/approve?run="+task.Get("id").String()) || !ask.Get("request.data.schema").IsObject() {
		t.Fatalf("the request = %s", ask.Raw)
	}
	if !strings.Contains(task.Get("status.message.parts.0.text").String(), `{"approved": true}`) {
		t.Fatalf("the question = %s", task.Get("status.message.parts.0.text"))
	}
	id := task.Get("id").String()
	done := hs.task(hs.send("", map[string]any{"taskId": id}, data(map[string]any{"approved": true})))
	if done.Get("status.state").String() != "TASK_STATE_COMPLETED" || answerText(done) != "done: refunded order 42" || hs.refunds.Load() != 1 {
		t.Fatalf("after approval: %s (refunds %d)", done.Raw, hs.refunds.Load())
	}
	if rec := done.Get("metadata.toolCalls.0"); rec.Get("name").String() != "refund" || rec.Get("output").String() != "refunded order 42" {
		t.Fatalf("tool calls = %s", done.Get("metadata").Raw)
	}
	again := hs.send("", map[string]any{"taskId": id}, data(map[string]any{"approved": true}))
	if rpcError(again) != a2a.CodeUnsupportedOperation || hs.refunds.Load() != 1 {
		t.Fatalf("second answer = %s (refunds %d)", again.Raw, hs.refunds.Load())
	}
	// The link, once the task has been answered, is refused too.
	link, _ := url.Parse(ask.Get("approveURL").String())
	if rec := hs.Do("POST", link.RequestURI(), `{"ok":true}`); rec.Code != http.StatusConflict || hs.refunds.Load() != 1 {
		t.Fatalf("the link after the answer = %d %s", rec.Code, rec.Body)
	}
}

// TestDeclineReasonReachesModel: a decline with a reason (data part, and
// the text as the reason) reaches the model; the refund never runs.
func TestDeclineReasonReachesModel(t *testing.T) {
	hs := newHarness(t, nil)
	for _, c := range []struct {
		text   string
		data   map[string]any
		reason string
	}{
		{"", map[string]any{"approved": false, "reason": "past the refund window"}, "past the refund window"},
		{"the customer withdrew it", map[string]any{"approved": false}, "the customer withdrew it"},
	} {
		id := hs.task(hs.send("refund order 42", nil)).Get("id").String()
		done := hs.task(hs.send(c.text, map[string]any{"taskId": id}, data(c.data)))
		if done.Get("status.state").String() != "TASK_STATE_COMPLETED" || !strings.Contains(answerText(done), c.reason) {
			t.Fatalf("after the decline: %s", done.Raw)
		}
		if rec := done.Get("metadata.toolCalls.0"); !rec.Get("declined").Bool() {
			t.Fatalf("record = %s", rec.Raw)
		}
		reqs := hs.LLM.Requests()
		if !strings.Contains(reqs[len(reqs)-1], c.reason) {
			t.Fatalf("the model did not read %q", c.reason)
		}
	}
	if hs.refunds.Load() != 0 {
		t.Fatalf("refunds = %d", hs.refunds.Load())
	}
}

// TestEditedArgsAreRecorded: approving with other arguments runs those,
// and the task's record says so beside the model's; an edit the tool's
// schema refuses is -32602 and records nothing.
func TestEditedArgsAreRecorded(t *testing.T) {
	hs := newHarness(t, nil)
	id := hs.task(hs.send("refund order 42", nil)).Get("id").String()
	bad := hs.send("", map[string]any{"taskId": id}, data(map[string]any{"approved": true, "args": map[string]any{"order": "forty-three"}}))
	if rpcError(bad) != a2a.CodeInvalidParams || !strings.Contains(bad.Get("error.message").String(), "nothing was recorded") {
		t.Fatalf("bad edit = %s", bad.Raw)
	}
	done := hs.task(hs.send("", map[string]any{"taskId": id}, data(map[string]any{"approved": true, "args": map[string]any{"order": 43}})))
	rec := done.Get("metadata.toolCalls.0")
	if answerText(done) != "done: refunded order 43" || !rec.Get("edited").Bool() || rec.Get("args").Raw != `{"order":43}` || rec.Get("originalArgs").Raw != `{"order":42}` {
		t.Fatalf("after the edit: %s", done.Raw)
	}
	events := hs.Do("GET", "/v1/runs/"+id+"/events", "").Body.String()
	if !strings.Contains(events, `"by":"a2a","decision":"edited"`) {
		t.Fatalf("events:\n%s", events)
	}
}

// TestTeamRequestNamesItsPath: a team skill's task waits on billing's
// refund with the path of the asking agent; approving it completes the
// task with support's answer.
func TestTeamRequestNamesItsPath(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["AGENTS"] = workertest.TeamAgents })
	task := hs.task(hs.rpc("SendMessage", map[string]any{"message": message("review order 42", nil), "metadata": map[string]any{"skill": "support"}}))
	ask := askData(task)
	if task.Get("status.state").String() != "TASK_STATE_INPUT_REQUIRED" || ask.Get("path").Raw != `["support","billing"]` || ask.Get("tool").String() != "refund" {
		t.Fatalf("team task = %s", task.Raw)
	}
	done := hs.task(hs.send("approve", map[string]any{"taskId": task.Get("id").String()}))
	if done.Get("status.state").String() != "TASK_STATE_COMPLETED" || hs.refunds.Load() != 1 || !strings.Contains(answerText(done), "refunded order 42") {
		t.Fatalf("after approval: %s (refunds %d)", done.Raw, hs.refunds.Load())
	}
	if res := hs.rpc("SendMessage", map[string]any{"message": message("hi", nil), "metadata": map[string]any{"skill": "nobody"}}); rpcError(res) != a2a.CodeInvalidParams {
		t.Fatalf("unknown skill = %s", res.Raw)
	}
}

// TestLinkAnswersTask: the approval link in the request answers the task
// as a message would; a message after it is refused.
func TestLinkAnswersTask(t *testing.T) {
	hs := newHarness(t, nil)
	task := hs.task(hs.send("refund order 42", nil))
	id := task.Get("id").String()
	link, _ := url.Parse(askData(task).Get("approveURL").String())
	if rec := hs.Do("POST", link.RequestURI(), `{"ok":true}`); rec.Code != http.StatusOK {
		t.Fatalf("link = %d %s", rec.Code, rec.Body)
	}
	done := hs.waitTask(id, "TASK_STATE_COMPLETED")
	if answerText(done) != "done: refunded order 42" || hs.refunds.Load() != 1 {
		t.Fatalf("after the link: %s", done.Raw)
	}
	if res := hs.send("", map[string]any{"taskId": id}, data(map[string]any{"approved": true})); rpcError(res) == 0 || hs.refunds.Load() != 1 {
		t.Fatalf("a message after the link = %s", res.Raw)
	}
}

// TestCancelDeclinesWaitingTask: CancelTask declines the request (the
// model reads it); a task that has ended is not cancelable.
func TestCancelDeclinesWaitingTask(t *testing.T) {
	hs := newHarness(t, nil)
	id := hs.task(hs.send("refund order 42", nil)).Get("id").String()
	res := hs.rpc("CancelTask", map[string]any{"id": id, "metadata": map[string]any{"reason": "changed my mind"}})
	if rpcError(res) != 0 {
		t.Fatalf("cancel = %s", res.Raw)
	}
	done := hs.waitTask(id, "TASK_STATE_COMPLETED")
	if !strings.Contains(answerText(done), "changed my mind") || hs.refunds.Load() != 0 {
		t.Fatalf("after cancel: %s", done.Raw)
	}
	if res := hs.rpc("CancelTask", map[string]any{"id": id}); rpcError(res) != a2a.CodeTaskNotCancelable {
		t.Fatalf("cancel an ended task = %s", res.Raw)
	}
}

// TestContextIDContinuesConversation: a message with a task's contextId
// starts a task whose run reads the conversation so far; the second
// task's contextId is the first's, and a third goes on from the second.
// A conversation whose latest task waits is not talked past.
func TestContextIDContinuesConversation(t *testing.T) {
	hs := newHarness(t, nil)
	first := hs.task(hs.send("hello, I am Ada", nil))
	ctx := first.Get("contextId").String()
	second := hs.task(hs.send("what is my name?", map[string]any{"contextId": ctx}))
	if second.Get("contextId").String() != ctx || second.Get("id").String() == first.Get("id").String() || answerText(second) != "hello" {
		t.Fatalf("second = %s", second.Raw)
	}
	reqs := hs.LLM.Requests()
	last := gjson.Get(reqs[len(reqs)-1], "messages.#.content").Raw
	if !strings.Contains(last, "hello, I am Ada") || !strings.Contains(last, "what is my name?") {
		t.Fatalf("the second run's model request: %s", last)
	}
	pending := hs.task(hs.send("refund order 42", map[string]any{"contextId": ctx}))
	if pending.Get("status.state").String() != "TASK_STATE_INPUT_REQUIRED" {
		t.Fatalf("third = %s", pending.Raw)
	}
	reqs = hs.LLM.Requests()
	if last := gjson.Get(reqs[len(reqs)-1], "messages.#.content").Raw; !strings.Contains(last, "hello, I am Ada") || !strings.Contains(last, "what is my name?") {
		t.Fatalf("the third run's model request: %s", last)
	}
	if res := hs.send("and now?", map[string]any{"contextId": ctx}); rpcError(res) != a2a.CodeUnsupportedOperation {
		t.Fatalf("past a waiting task = %s", res.Raw)
	}
	for _, bad := range []string{"ctx_nope", "ctx_" + strings.Repeat("0", 32), "run_" + first.Get("id").String()[4:], second.Get("id").String()} {
		if res := hs.send("hi", map[string]any{"contextId": bad}); rpcError(res) != a2a.CodeInvalidParams {
			t.Fatalf("contextId %s = %s", bad, res.Raw)
		}
	}
}

// TestStreamingSendsProgress: SendStreamingMessage streams the task, its
// tool call and its halt; streaming the answer then streams the answer,
// the result, the artifact and the completed status. SubscribeToTask of
// a waiting task is its state; of an ended one -32004.
func TestStreamingSendsProgress(t *testing.T) {
	hs := newHarness(t, nil)
	stream := func(method string, params any) []gjson.Result {
		t.Helper()
		b := `{"jsonrpc":"2.0","id":"s1","method":"` + method + `","params":` + gjson.Parse(mustJSON(t, params)).Raw + `}`
		rec := hs.Do("POST", RPCRoute, b)
		if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
			t.Fatalf("%s = %d %s %s", method, rec.Code, rec.Header(), rec.Body)
		}
		return sseResults(t, rec.Body.String())
	}
	kinds := func(rs []gjson.Result) string {
		var out []string
		for _, r := range rs {
			switch {
			case r.Get("task").Exists():
				out = append(out, "task:"+r.Get("task.status.state").String())
			case r.Get("statusUpdate").Exists():
				out = append(out, "status:"+r.Get("statusUpdate.status.state").String())
			case r.Get("artifactUpdate").Exists():
				out = append(out, "artifact:"+r.Get("artifactUpdate.artifact.parts.0.text").String())
			}
		}
		return strings.Join(out, " ")
	}
	first := stream("SendStreamingMessage", map[string]any{"message": message("refund order 42", nil)})
	if got := kinds(first); got != "task:TASK_STATE_WORKING status:TASK_STATE_WORKING status:TASK_STATE_INPUT_REQUIRED" {
		t.Fatalf("first stream: %s", got)
	}
	last := first[len(first)-1].Get("statusUpdate")
	id := last.Get("taskId").String()
	if askData(last).Get("tool").String() != "refund" {
		t.Fatalf("the halt = %s", last.Raw)
	}
	sub := stream("SubscribeToTask", map[string]any{"id": id})
	if got := kinds(sub); got != "task:TASK_STATE_INPUT_REQUIRED" {
		t.Fatalf("subscribe: %s", got)
	}
	second := stream("SendStreamingMessage", map[string]any{"message": message("", map[string]any{"taskId": id}, data(map[string]any{"approved": true}))})
	if got := kinds(second); got != "task:TASK_STATE_WORKING status:TASK_STATE_WORKING status:TASK_STATE_WORKING artifact:done: refunded order 42 status:TASK_STATE_COMPLETED" {
		t.Fatalf("second stream: %s", got)
	}
	if hs.refunds.Load() != 1 || second[len(second)-1].Get("statusUpdate.metadata.toolCalls.0.name").String() != "refund" {
		t.Fatalf("refunds %d, end %s", hs.refunds.Load(), second[len(second)-1].Raw)
	}
	if res := hs.rpc("SubscribeToTask", map[string]any{"id": id}); rpcError(res) != a2a.CodeUnsupportedOperation {
		t.Fatalf("subscribe to an ended task = %s", res.Raw)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
