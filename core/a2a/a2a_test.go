package a2a_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/core/tool"
)

// connect makes the tools of agent a (card at fakeOrigin), as configured
// by the JSON entry cfg.
func connect(t *testing.T, a *fakeAgent, cfg string, env tool.A2AEnv) ([]tool.Tool, map[string]tool.A2AStatus) {
	t.Helper()
	agents, err := a2a.Parse([]byte(`{"agents": {"desk": ` + cfg + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	if env.Transport == nil {
		env.Transport = a.transport()
	}
	return a2a.Tools(context.Background(), agents, env)
}

const deskCard = `{"card": "` + fakeOrigin + `/.well-known/agent-card.json", "pollEvery": 1}`

func toolNamed(t *testing.T, tools []tool.Tool, name string) tool.Tool {
	t.Helper()
	for _, tl := range tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s among %d", name, len(tools))
	return tool.Tool{}
}

func run(tl tool.Tool, task string, ans *tool.Answer) tool.ToolResult {
	res, _ := tl.Execute(map[string]any{"task": task}, &tool.ToolContext{Ctx: context.Background(), Answer: ans})
	return res
}

func TestSkillsBecomeTools(t *testing.T) {
	for _, v1 := range []bool{true, false} {
		a := newFakeAgent(v1)
		a.cardURL = fakeOrigin + "/"
		tools, status := connect(t, a, deskCard, tool.A2AEnv{})
		if st := status["desk"]; st.Status != tool.MCPConnected || st.Tools != 2 || st.Card != "billing desk" {
			t.Fatalf("v1=%v status %+v", v1, st)
		}
		var names []string
		for _, tl := range tools {
			names = append(names, tl.Name+":"+tl.Description+":"+string(tl.Source))
		}
		if got := strings.Join(names, ","); got != "billing_desk_refund:Refund an order:a2a,billing_desk_invoice:Invoice:a2a" {
			t.Fatalf("v1=%v tools %s", v1, got)
		}
		if req := tools[0].InputSchema["required"].([]string); len(req) != 1 || req[0] != "task" || !tools[0].RunsOnDecline || tools[0].NeedsApproval {
			t.Fatalf("schema %v, RunsOnDecline %v", tools[0].InputSchema, tools[0].RunsOnDecline)
		}
	}
}

func TestOutcomes(t *testing.T) {
	tests := []struct {
		task, want, state string
		isError           bool
	}{
		{"hello there", "done: hello there", "completed", false},
		{"slow one", "done: slow one", "completed", false},
		{"message me", "hi from the desk", "completed", false},
		{"fail now", "A2A task task-1 failed: boom", "failed", true},
		{"reject it", "A2A task task-1 rejected: not my job", "rejected", true},
	}
	for _, v1 := range []bool{true, false} {
		for _, tt := range tests {
			a := newFakeAgent(v1)
			a.cardURL = fakeOrigin + "/"
			tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
			res := run(tools[0], tt.task, nil)
			if res.Output != tt.want || res.IsError != tt.isError || res.Metadata["state"] != tt.state || res.Metadata["agent"] != "billing desk" {
				t.Errorf("v1=%v %q: %+v", v1, tt.task, res)
			}
		}
	}
	a := newFakeAgent(true)
	tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
	res := run(tools[0], "slow", nil)
	if res.Metadata["polls"] != 2 || res.Metadata["taskId"] != "task-1" {
		t.Fatalf("metadata %v", res.Metadata)
	}
	if got := strings.Join(a.calls(), ","); got != "SendMessage,GetTask,GetTask" {
		t.Fatalf("calls %s", got)
	}
}

func TestRequestsCarryVersionAndFilledHeaders(t *testing.T) {
	a := newFakeAgent(true)
	fill := func(v string) (string, error) {
		return tool.FillVariables(v, map[string]string{"TOKEN": "s3cret"}, nil)
	}
	tools, _ := connect(t, a, `{"card": "`+fakeOrigin+`/.well-known/agent-card.json", "headers": {"Authorization": "Bearer ${TOKEN}"}}`, tool.A2AEnv{Fill: fill})
	run(tools[0], "hello", nil)
	h := a.headers[len(a.headers)-1]
	if h.Get("Authorization") != "Bearer s3cret" || h.Get("A2A-Version") != "1.0" || h.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v", h)
	}
	body := a.bodies[0]
	for _, want := range []string{`"method":"SendMessage"`, `"role":"ROLE_USER"`, `"kind":"text","text":"hello"`, `"jsonrpc":"2.0"`} {
		if !strings.Contains(body, want) {
			t.Errorf("SendMessage body %s lacks %s", body, want)
		}
	}
	// An unset variable fails the agent without sending anything, and never
	// shows a value.
	b := newFakeAgent(true)
	_, status := connect(t, b, `{"card": "`+fakeOrigin+`/.well-known/agent-card.json", "headers": {"x-key": "${MISSING}"}}`,
		tool.A2AEnv{Fill: func(v string) (string, error) { return tool.FillVariables(v, nil, nil) }})
	if st := status["desk"]; st.Status != tool.MCPFailed || !strings.Contains(st.Reason, "MISSING is not set") {
		t.Fatalf("status %+v", st)
	}
}

// A card whose endpoint is on another origin does not get the agent's
// headers, unless the configuration names that endpoint.
func TestHeadersStayOnTheCardsOrigin(t *testing.T) {
	a := newFakeAgent(true)
	a.endpoint = "http://elsewhere.test/rpc"
	_, status := connect(t, a, `{"card": "`+fakeOrigin+`/.well-known/agent-card.json", "headers": {"authorization": "Bearer x"}}`, tool.A2AEnv{})
	if st := status["desk"]; st.Status != tool.MCPFailed || !strings.Contains(st.Reason, "another origin") || strings.Contains(st.Reason, "Bearer") {
		t.Fatalf("status %+v", st)
	}
	tools, status := connect(t, a, `{"card": "`+fakeOrigin+`/.well-known/agent-card.json", "url": "http://elsewhere.test/rpc", "headers": {"authorization": "Bearer x"}}`, tool.A2AEnv{})
	if status["desk"].Status != tool.MCPConnected || run(tools[0], "hello", nil).IsError {
		t.Fatalf("status %+v", status["desk"])
	}
	// Without headers there is nothing to leak: the card's endpoint is used.
	if _, status := connect(t, a, deskCard, tool.A2AEnv{}); status["desk"].Status != tool.MCPConnected {
		t.Fatalf("status %+v", status["desk"])
	}
}

func TestInputRequiredSuspendsAndTheAnswerContinues(t *testing.T) {
	for _, v1 := range []bool{true, false} {
		a := newFakeAgent(v1)
		a.cardURL = fakeOrigin + "/"
		tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
		first := run(tools[0], "ask about order 42", nil)
		req := tool.PendingOf(first)
		if req == nil {
			t.Fatalf("v1=%v: no suspension: %+v", v1, first)
		}
		if req.Kind != tool.KindInput || req.Prompt != `The remote agent "billing desk" asks: Refund order 42?` ||
			req.Data["taskId"] != "task-1" || req.Data["state"] != "input-required" || req.Data["source"] != "a2a" || req.Data["schema"] == nil {
			t.Fatalf("v1=%v request %+v", v1, req)
		}
		if _, ok := req.Data["tool"]; ok {
			t.Fatal("data.tool would make the dialog show an approval of the tool")
		}
		// The answer reaches the agent through a re-run: a reply, then done.
		done := run(tools[0], "ask about order 42", &tool.Answer{ID: req.ID, Ok: true, Data: map[string]any{"reply": "yes, refund it"}})
		if done.IsError || done.Output != "done: ask about order 42 | yes, refund it" {
			t.Fatalf("v1=%v after the answer: %+v", v1, done)
		}
		if ft := a.task("task-1"); ft.replyData[0]["approved"] != true || ft.replyData[0]["reply"] != "yes, refund it" {
			t.Fatalf("reply data %v", ft.replyData)
		}
		if !strings.Contains(a.bodies[len(a.bodies)-1], `"taskId":"task-1"`) {
			t.Fatalf("the reply does not continue the task: %s", a.bodies[len(a.bodies)-1])
		}
	}
}

func TestAnApprovalWithoutWordsSaysApproved(t *testing.T) {
	a := newFakeAgent(true)
	tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
	req := tool.PendingOf(run(tools[0], "ask", nil))
	if res := run(tools[0], "ask", &tool.Answer{ID: req.ID, Ok: true}); res.Output != "done: ask | approved" {
		t.Fatalf("%+v", res)
	}
	req = tool.PendingOf(run(tools[0], "ask", nil))
	if res := run(tools[0], "ask", &tool.Answer{ID: req.ID, Ok: true, Data: map[string]any{"output": "fine"}}); res.Output != "done: ask | fine" {
		t.Fatalf("%+v", res)
	}
}

func TestDeclineCancelsTheTask(t *testing.T) {
	a := newFakeAgent(true)
	tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
	req := tool.PendingOf(run(tools[0], "ask", nil))
	res := run(tools[0], "ask", &tool.Answer{ID: req.ID, Ok: false, Reason: "not that order"})
	if !res.IsError || res.Output != "declined: not that order — so the A2A task task-1 of billing desk was cancelled" || res.Metadata["state"] != "canceled" {
		t.Fatalf("%+v", res)
	}
	if a.task("task-1").state != "canceled" {
		t.Fatal("the remote task was not cancelled")
	}
	if got := strings.Join(a.calls(), ","); got != "SendMessage,CancelTask" {
		t.Fatalf("calls %s", got)
	}
}

func TestASecondQuestionCancelsTheTask(t *testing.T) {
	a := newFakeAgent(true)
	tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
	req := tool.PendingOf(run(tools[0], "ask twice", nil))
	res := run(tools[0], "ask twice", &tool.Answer{ID: req.ID, Ok: true})
	if !res.IsError || tool.PendingOf(res) != nil || !strings.Contains(res.Output, "asked again") || !strings.Contains(res.Output, "And the shipping too?") {
		t.Fatalf("%+v", res)
	}
	if a.task("task-1").state != "canceled" {
		t.Fatal("the task waiting on a second answer was not cancelled")
	}
}

func TestAuthRequiredAsksForASignIn(t *testing.T) {
	a := newFakeAgent(true)
	tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
	req := tool.PendingOf(run(tools[0], "login first", nil))
	if req == nil || req.Kind != tool.KindAuthorization || req.URL != "https://auth.example/login" || req.Data["schema"] != nil {
		t.Fatalf("request %+v", req)
	}
	if res := run(tools[0], "login first", &tool.Answer{ID: req.ID, Ok: true}); res.IsError || res.Output != "done: login first | approved" {
		t.Fatalf("%+v", res)
	}
}

func TestAnswersThatNameNoTask(t *testing.T) {
	a := newFakeAgent(true)
	tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
	for _, id := range []string{"req_1", "a2a_x.zz", "a2a_x."} {
		res := run(tools[0], "ask", &tool.Answer{ID: id, Ok: true})
		if !res.IsError || !strings.Contains(res.Output, "answer's id") {
			t.Errorf("%s: %+v", id, res)
		}
	}
	if len(a.calls()) != 0 {
		t.Fatalf("a bad answer reached the agent: %v", a.calls())
	}
}

func TestTimeoutAndCancelStopTheTask(t *testing.T) {
	a := newFakeAgent(true)
	tools, _ := connect(t, a, `{"card": "`+fakeOrigin+`/.well-known/agent-card.json", "pollEvery": 5, "timeout": 40}`, tool.A2AEnv{})
	res := run(tools[0], "hang on", nil)
	if !res.IsError || res.Output != "A2A task task-1 timed out after 40ms (state=working)" {
		t.Fatalf("%+v", res)
	}
	if a.task("task-1").state != "canceled" {
		t.Fatal("a timed-out task was left running")
	}

	b := newFakeAgent(true)
	tools, _ = connect(t, b, `{"card": "`+fakeOrigin+`/.well-known/agent-card.json", "pollEvery": 5}`, tool.A2AEnv{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(b.calls()) < 3 { // SendMessage and a GetTask or two
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	res, _ = tools[0].Execute(map[string]any{"task": "hang on"}, &tool.ToolContext{Ctx: ctx})
	if !res.IsError || res.Output != "A2A task task-1 canceled" || res.Metadata["state"] != "canceled" {
		t.Fatalf("%+v", res)
	}
	calls := b.calls()
	if calls[len(calls)-1] != "CancelTask" {
		t.Fatalf("calls %v", calls)
	}
}

func TestTransportAndProtocolErrors(t *testing.T) {
	a := newFakeAgent(true)
	tools, _ := connect(t, a, deskCard, tool.A2AEnv{})
	a.status = 502
	res := run(tools[0], "hello", nil)
	if !res.IsError || res.Output != `HTTP 502: {"error":"upstream trouble"}` {
		t.Fatalf("%+v", res)
	}
	a.status = 0
	bad := tool.TransportFunc(func(ctx context.Context, req *tool.HTTPRequest) (*tool.HTTPResponse, error) {
		if req.Method == "GET" {
			return a.transport().Do(ctx, req)
		}
		return &tool.HTTPResponse{Status: 200, Body: nopBody(`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", 2000))}, nil
	})
	tools, _ = connect(t, a, deskCard, tool.A2AEnv{Transport: bad})
	if res := run(tools[0], "hello", nil); !res.IsError || !strings.Contains(res.Output, "nested more than") {
		t.Fatalf("%+v", res)
	}
}

func TestParse(t *testing.T) {
	agents, err := a2a.Parse([]byte(`{"agents": {"b": {"card": "https://b.example/card", "timeout": 5, "pollEvery": 7, "headers": {"X-Key": "${K}"}},
		"a": {"card": "https://a.example/card", "enabled": false}, "c": {"disabled": true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(agents) != 3 || agents[0].Name != "b" || agents[0].TimeoutMs != 5 || agents[0].PollEveryMs != 7 || agents[0].Headers["x-key"] != "${K}" ||
		!agents[1].Disabled || agents[1].TimeoutMs != 300000 || !agents[2].Disabled {
		t.Fatalf("%+v", agents)
	}
	if bare, err := a2a.Parse([]byte(`{"b": {"card": "https://b.example/card"}}`)); err != nil || len(bare) != 1 {
		t.Fatalf("%v %v", bare, err)
	}
	for in, want := range map[string]string{
		`[1]`:                                    "want a JSON object",
		`{"agents": 3}`:                          "object of name",
		`{"agents": {"a": 1}}`:                   `agent "a": want an object`,
		`{"agents": {"a": {}}}`:                  "card must be",
		`{"agents": {"a": {"card": "ftp://x"}}}`: "card must be",
		`{"agents": {"a": {"card": "https://x", "timeout": -1}}}`: "timeout must be",
		`{"agents": {"a": {"card": "https://x", "url": "x"}}}`:    "url must be",
		`{"agents": {"a": {"card": "https://x", "headers": 1}}}`:  "headers must be",
		`{"agents": `:             "invalid JSON",
		strings.Repeat("[", 2000): "nested more than",
	} {
		if _, err := a2a.Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%.40s) = %v, want %q", in, err, want)
		}
	}
}

func TestStates(t *testing.T) {
	for in, want := range map[string]string{"TASK_STATE_INPUT_REQUIRED": "input-required", "input-required": "input-required",
		"cancelled": "canceled", "TASK_STATE_CANCELED": "canceled", "": "unknown", "TASK_STATE_UNSPECIFIED": "unknown", "AUTH_REQUIRED": "auth-required"} {
		if got := a2a.NormalizeState(in); got != want {
			t.Errorf("NormalizeState(%q) = %q, want %q", in, got, want)
		}
	}
	if a2a.WireState("input-required") != "TASK_STATE_INPUT_REQUIRED" || a2a.WireState("nonsense") != "TASK_STATE_UNSPECIFIED" {
		t.Error("WireState")
	}
	if !a2a.Terminal("rejected") || a2a.Terminal("input-required") || !a2a.Interrupted("TASK_STATE_AUTH_REQUIRED") {
		t.Error("Terminal/Interrupted")
	}
	auth := &tool.Request{Kind: tool.KindAuthorization}
	ask := &tool.Request{Kind: tool.KindApproval}
	for _, c := range []struct {
		status  string
		pending *tool.Request
		err     error
		want    string
	}{{"done", nil, nil, "completed"}, {"incomplete", nil, nil, "completed"}, {"pending", ask, nil, "input-required"},
		{"pending", auth, nil, "auth-required"}, {"done", nil, context.Canceled, "failed"}} {
		if got := a2a.StateOf(c.status, c.pending, c.err); got != c.want {
			t.Errorf("StateOf(%s) = %s, want %s", c.status, got, c.want)
		}
	}
}
