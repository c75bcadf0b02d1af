package core

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/internal/jsonx"
)

func refundScript(t *testing.T, style Style) *scriptedModel {
	return newScripted(t, style,
		turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"42"}`)}},
		turn{Text: "done with the refund"})
}

func TestInlineWaitFor(t *testing.T) {
	tests := []struct {
		name       string
		waitFor    func(Request) (Answer, error)
		wantRuns   int
		wantResult string
	}{
		{"approve", func(r Request) (Answer, error) { return Answer{ID: r.ID, Ok: true}, nil }, 1, "refund ran for order 42"},
		{"decline", func(r Request) (Answer, error) { return AnswerDeclined(r.ID, "too large"), nil }, 0, `tool "refund" was not run: declined: too large`},
		{"waitFor error", func(r Request) (Answer, error) { return Answer{}, errors.New("dialog crashed") }, 0, "declined: dialog crashed"},
		{"wrong answer id", func(r Request) (Answer, error) { return Answer{ID: "someone-else", Ok: true}, nil }, 0, "does not match the request id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c counter
			var seen []Request
			m := refundScript(t, StyleOpenAI)
			wait := func(r Request) (Answer, error) { seen = append(seen, r); return tt.waitFor(r) }
			res, err := m.client(ClientOptions{WaitFor: wait}).Run(context.Background(), "refund order 42", mustToolkit(t, RequireApproval(c.tool("refund"))))
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusDone || c.count() != tt.wantRuns {
				t.Fatalf("status %s runs %d", res.Status, c.count())
			}
			if len(seen) != 1 || seen[0].Kind != KindApproval || seen[0].Data["tool"] != "refund" || seen[0].Data["callId"] != "c1" {
				t.Fatalf("requests seen = %+v", seen)
			}
			if args, _ := seen[0].Data["args"].(map[string]any); args["order"] != "42" {
				t.Fatalf("the approval must show the exact arguments, got %v", seen[0].Data["args"])
			}
			if got := m.toolResults(2); len(got) != 1 || !strings.Contains(got[0], tt.wantResult) {
				t.Fatalf("model saw %q, want %q", got, tt.wantResult)
			}
			assertBalanced(t, res.Messages)
		})
	}
}

// A tool of its own making suspends (an input request); the answer reaches it
// through ToolContext.Answer on the second run.
func TestToolSuspendsForInput(t *testing.T) {
	runs := 0
	ask := Tool{Name: "ask_name", Execute: func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
		runs++
		if tctx.Answer == nil {
			return Pending(Request{Kind: KindInput, Prompt: "What is your name?"}), nil
		}
		return ToolResult{Output: "name: " + jsonx.Text(tctx.Answer.Data["output"])}, nil
	}}
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "ask_name", "")}}, turn{Text: "hi Ada"})
	res, err := m.client(ClientOptions{WaitFor: func(r Request) (Answer, error) { return AnswerOutput(r.ID, "Ada"), nil }}).
		Run(context.Background(), "greet me", mustToolkit(t, ask))
	if err != nil || res.Status != StatusDone || runs != 2 {
		t.Fatalf("res %+v err %v runs %d", res, err, runs)
	}
	if got := m.toolResults(2); got[0] != "name: Ada" {
		t.Fatalf("got %q", got)
	}
}

func TestSecondSuspensionIsAnError(t *testing.T) {
	stubborn := Tool{Name: "stubborn", Execute: func(map[string]any, *ToolContext) (ToolResult, error) {
		return Pending(Request{Kind: KindInput, Prompt: "again?"}), nil
	}}
	asked := 0
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "stubborn", "")}}, turn{Text: "gave up"})
	res, err := m.client(ClientOptions{WaitFor: func(r Request) (Answer, error) { asked++; return AnswerOutput(r.ID, "x"), nil }}).
		Run(context.Background(), "go", mustToolkit(t, stubborn))
	if err != nil || res.Status != StatusDone || asked != 1 {
		t.Fatalf("res %+v err %v asked %d", res, err, asked)
	}
	if got := m.toolResults(2); !strings.Contains(got[0], "suspended again") {
		t.Fatalf("got %q", got)
	}
}

func TestDurableApprovalResume(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		t.Run(string(style), func(t *testing.T) {
			var c counter
			m := refundScript(t, style)
			client := m.client(ClientOptions{})
			tk := mustToolkit(t, RequireApproval(c.tool("refund")))
			halted, err := client.Run(context.Background(), "refund order 42", tk)
			if err != nil {
				t.Fatal(err)
			}
			if halted.Status != StatusPending || halted.Pending == nil || halted.Pending.Kind != KindApproval || c.count() != 0 {
				t.Fatalf("halted = %+v runs %d", halted, c.count())
			}
			assertBalanced(t, halted.Messages)
			res, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, Answer{ID: halted.Pending.ID, Ok: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusDone || c.count() != 1 || res.Text != "done with the refund" {
				t.Fatalf("resumed = %+v runs %d", res, c.count())
			}
			// No user turn is added on resume, and the placeholder is replaced.
			sent := m.sent()[1].Body.Get("messages").Array()
			users := 0
			for _, msg := range sent {
				if msg.Get("role").String() == "user" && !strings.Contains(msg.Raw, "tool_result") {
					users++
				}
			}
			if users != 1 || strings.Contains(m.sent()[1].Body.Raw, "toolnexus:pending") {
				t.Fatalf("resumed request = %s", m.sent()[1].Body.Raw)
			}
			assertBalanced(t, res.Messages)
			// Replaying the same answer against the resumed transcript finds
			// nothing waiting: it is refused, and the tool does not run again.
			if _, err := client.RunWithAnswer(context.Background(), tk, res.Messages, *halted.Pending, Answer{ID: halted.Pending.ID, Ok: true}); err == nil {
				t.Fatal("a replayed answer must be refused")
			}
			if c.count() != 1 {
				t.Fatalf("tool ran %d times", c.count())
			}
		})
	}
}

func TestResumeRefusesMismatchedAnswer(t *testing.T) {
	var c counter
	m := refundScript(t, StyleOpenAI)
	client := m.client(ClientOptions{})
	tk := mustToolkit(t, RequireApproval(c.tool("refund")))
	halted, _ := client.Run(context.Background(), "refund order 42", tk)
	res, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, Answer{ID: "forged", Ok: true})
	if err == nil || !strings.Contains(err.Error(), "does not echo") {
		t.Fatalf("err = %v", err)
	}
	// A forged pending request that names another id finds no waiting call.
	forged := *halted.Pending
	forged.ID = "forged"
	if _, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, forged, Answer{ID: "forged", Ok: true}); err == nil {
		t.Fatal("an answer to a request nobody waits on must be refused")
	}
	if c.count() != 0 || len(res.Messages) != len(halted.Messages) {
		t.Fatalf("runs %d, transcript %d→%d", c.count(), len(halted.Messages), len(res.Messages))
	}
}

func TestApprovalWithEditedArgs(t *testing.T) {
	tests := []struct {
		name     string
		args     any
		wantRuns int
		want     string
	}{
		{"valid edit", map[string]any{"order": "43"}, 1, "refund ran for order 43"},
		{"wrong type", map[string]any{"order": 43.0}, 0, `"order" must be string`},
		{"missing required", map[string]any{}, 0, `missing required "order"`},
		{"not an object", "order=43", 0, "must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c counter
			m := refundScript(t, StyleOpenAI)
			var asked Request
			wait := func(r Request) (Answer, error) {
				asked = r
				return Answer{ID: r.ID, Ok: true, Data: map[string]any{"args": tt.args}}, nil
			}
			res, err := m.client(ClientOptions{WaitFor: wait}).Run(context.Background(), "refund", mustToolkit(t, RequireApproval(c.tool("refund"))))
			if err != nil || res.Status != StatusDone {
				t.Fatalf("res %+v err %v", res, err)
			}
			if c.count() != tt.wantRuns {
				t.Fatalf("runs = %d, want %d", c.count(), tt.wantRuns)
			}
			if got := m.toolResults(2); !strings.Contains(got[0], tt.want) {
				t.Fatalf("result %q, want %q", got[0], tt.want)
			}
			// The request carries the schema the edit is checked against.
			if schema, _ := asked.Data["schema"].(map[string]any); schema["required"] == nil {
				t.Fatalf("approval request data %v has no schema", asked.Data)
			}
			// The record shows the arguments that ran, marked as edited;
			// a refused edit leaves the model's arguments in the record.
			rec := res.ToolCalls[0]
			if ran := tt.wantRuns == 1; rec.Edited != ran || (ran && string(rec.RawArgs) != `{"order":"43"}`) || (!ran && string(rec.RawArgs) != `{"order":"42"}`) {
				t.Fatalf("record %+v (args %s)", rec, rec.RawArgs)
			}
		})
	}
}

// TestTwoRelayCallsRideOneRequest: two relay calls in one turn surface as
// one Request listing both in call order when the run halts; with WaitFor
// each is asked on its own.
func TestTwoRelayCallsRideOneRequest(t *testing.T) {
	script := func() *scriptedModel {
		return newScripted(t, StyleOpenAI,
			turn{Calls: []ToolRequest{call("r1", "lookup", `{"q":"a"}`), call("n1", "local", `{"order":"5"}`), call("r2", "lookup", `{"q":"b"}`)}},
			turn{Text: "both looked up"})
	}
	var c counter
	tools := func() *Toolkit { return mustToolkit(t, RelayTool("lookup", "host lookup", nil), c.tool("local")) }

	t.Run("durable", func(t *testing.T) {
		m := script()
		client := m.client(ClientOptions{})
		tk := tools()
		halted, err := client.Run(context.Background(), "look up a and b", tk)
		if err != nil || halted.Status != StatusPending {
			t.Fatalf("halted %+v err %v", halted, err)
		}
		calls := RelayCallsOf(halted.Pending)
		if len(calls) != 2 || calls[0].ID != "r1" || calls[1].ID != "r2" || calls[1].Input["q"] != "b" || calls[0].Arguments != `{"q":"a"}` {
			t.Fatalf("relay calls = %+v", calls)
		}
		ans := RelayAnswer(halted.Pending.ID, []RelayResult{{ID: "r2", Output: "B!"}, {ID: "r1", Output: "A!"}})
		res, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, ans)
		if err != nil || res.Status != StatusDone {
			t.Fatalf("res %+v err %v", res, err)
		}
		got := m.toolResults(2)
		if len(got) != 3 || got[0] != "A!" || got[1] != "local ran for order 5" || got[2] != "B!" {
			t.Fatalf("results = %q", got)
		}
		assertBalanced(t, res.Messages)
	})

	// With WaitFor each relay call is its own question, as in the Go port:
	// both are asked at once, each answered with AnswerOutput.
	t.Run("inline", func(t *testing.T) {
		m := script()
		var asked atomic.Int32
		wait := func(r Request) (Answer, error) {
			asked.Add(1)
			calls := RelayCallsOf(&r)
			if len(calls) != 1 {
				t.Errorf("calls = %+v", calls)
				return AnswerDeclined(r.ID, "bad request"), nil
			}
			if calls[0].ID == "r1" {
				return AnswerOutput(r.ID, "A!"), nil
			}
			return Answer{ID: r.ID, Ok: true, Data: map[string]any{RelayOutputKey: "B failed", RelayIsErrorKey: true}}, nil
		}
		res, err := m.client(ClientOptions{WaitFor: wait}).Run(context.Background(), "look up", tools())
		if err != nil || res.Status != StatusDone || asked.Load() != 2 {
			t.Fatalf("res %+v err %v asked %d", res, err, asked.Load())
		}
		if got := m.toolResults(2); got[0] != "A!" || got[2] != "B failed" {
			t.Fatalf("results = %q", got)
		}
	})
}

// TestTwoSuspendingToolsDurable: two ordinary tools needing approval in one
// turn halt twice, and after both answers every call has exactly one result.
func TestTwoSuspendingToolsDurable(t *testing.T) {
	var a, b counter
	m := newScripted(t, StyleOpenAI,
		turn{Calls: []ToolRequest{call("c1", "first", `{"order":"1"}`), call("c2", "second", `{"order":"2"}`)}},
		turn{Text: "first approved, second declined"})
	client := m.client(ClientOptions{})
	tk := mustToolkit(t, RequireApproval(a.tool("first")), RequireApproval(b.tool("second")))

	halted, err := client.Run(context.Background(), "do both", tk)
	if err != nil || halted.Status != StatusPending || halted.Pending.Data["tool"] != "first" {
		t.Fatalf("first halt %+v err %v", halted, err)
	}
	assertBalanced(t, halted.Messages)
	again, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, Answer{ID: halted.Pending.ID, Ok: true})
	if err != nil || again.Status != StatusPending || again.Pending.Data["tool"] != "second" || a.count() != 1 {
		t.Fatalf("second halt %+v err %v", again, err)
	}
	if len(m.sent()) != 1 {
		t.Fatal("the model must not be called while a call of the turn still waits")
	}
	assertBalanced(t, again.Messages)
	done, err := client.RunWithAnswer(context.Background(), tk, again.Messages, *again.Pending, AnswerDeclined(again.Pending.ID, "not today"))
	if err != nil || done.Status != StatusDone {
		t.Fatalf("done %+v err %v", done, err)
	}
	if a.count() != 1 || b.count() != 0 {
		t.Fatalf("runs first=%d second=%d", a.count(), b.count())
	}
	got := m.toolResults(2)
	if len(got) != 2 || got[0] != "first ran for order 1" || !strings.Contains(got[1], "declined: not today") {
		t.Fatalf("results = %q", got)
	}
	assertBalanced(t, done.Messages)
}

// A suspension is not a tool error: hooks never see it.
func TestSuspensionSkipsAfterTool(t *testing.T) {
	var c counter
	seen := 0
	m := refundScript(t, StyleOpenAI)
	hooks := &Hooks{AfterTool: func(context.Context, AfterToolEvent) (*ToolOverride, error) { seen++; return nil, nil }}
	res, _ := m.client(ClientOptions{Hooks: hooks}).Run(context.Background(), "refund", mustToolkit(t, RequireApproval(c.tool("refund"))))
	if res.Status != StatusPending || seen != 0 || res.ToolCallCount != 0 {
		t.Fatalf("status %s AfterTool calls %d records %d", res.Status, seen, res.ToolCallCount)
	}
}

// TestCancelWhileWaiting: a run whose WaitFor never answers still ends when
// its context does, and WaitForContext sees the cancellation.
func TestCancelWhileWaiting(t *testing.T) {
	for _, withCtx := range []bool{false, true} {
		var c counter
		m := refundScript(t, StyleOpenAI)
		withdrawn := make(chan struct{})
		opts := ClientOptions{}
		if withCtx {
			opts.WaitForContext = func(ctx context.Context, r Request) (Answer, error) {
				<-ctx.Done()
				close(withdrawn)
				return Answer{}, ctx.Err()
			}
		} else {
			opts.WaitFor = func(r Request) (Answer, error) { select {} }
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		client := m.client(opts)
		tk := mustToolkit(t, RequireApproval(c.tool("refund")))
		res, err := client.Run(ctx, "refund", tk)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrWaitCancelled) || c.count() != 0 {
			t.Fatalf("withCtx=%v: err %v runs %d", withCtx, err, c.count())
		}
		// The cancelled wait leaves a durable halt: resuming it later works.
		if res.Status != StatusPending || res.Pending == nil || res.Pending.Kind != KindApproval {
			t.Fatalf("withCtx=%v: result %+v", withCtx, res)
		}
		assertBalanced(t, res.Messages)
		done, err := client.RunWithAnswer(context.Background(), tk, res.Messages, *res.Pending, Answer{ID: res.Pending.ID, Ok: true})
		if err != nil || done.Status != StatusDone || c.count() != 1 {
			t.Fatalf("withCtx=%v: resumed %+v err %v runs %d", withCtx, done, err, c.count())
		}
		if withCtx {
			select {
			case <-withdrawn:
			case <-time.After(time.Second):
				t.Fatal("WaitForContext never saw the cancellation")
			}
		}
	}
}

func TestWaitForPanicIsADecline(t *testing.T) {
	var c counter
	m := refundScript(t, StyleOpenAI)
	res, err := m.client(ClientOptions{WaitFor: func(Request) (Answer, error) { panic("dialog bug") }}).
		Run(context.Background(), "refund", mustToolkit(t, RequireApproval(c.tool("refund"))))
	if err != nil || res.Status != StatusDone || c.count() != 0 {
		t.Fatalf("res %+v err %v", res, err)
	}
	if got := m.toolResults(2); !strings.Contains(got[0], "declined: WaitFor panicked: dialog bug") {
		t.Fatalf("result = %q", got)
	}
}

func TestLockApprovedArgs(t *testing.T) {
	var c counter
	m := refundScript(t, StyleOpenAI)
	wait := func(r Request) (Answer, error) {
		return Answer{ID: r.ID, Ok: true, Data: map[string]any{"args": map[string]any{"order": "43"}}}, nil
	}
	res, err := m.client(ClientOptions{WaitFor: wait, LockApprovedArgs: true}).Run(context.Background(), "refund", mustToolkit(t, RequireApproval(c.tool("refund"))))
	if err != nil || res.Status != StatusDone || c.count() != 0 {
		t.Fatalf("res %+v err %v runs %d", res, err, c.count())
	}
	if got := m.toolResults(2); !strings.Contains(got[0], "changed its arguments") {
		t.Fatalf("result = %q", got)
	}
}

// TestDeclinedCallIsMarked: a declined call's record and tool_result event
// say it was declined, apart from a failing call.
func TestDeclinedCallIsMarked(t *testing.T) {
	var c counter
	m := refundScript(t, StyleOpenAI)
	wait := func(r Request) (Answer, error) { return AnswerDeclined(r.ID, "too late"), nil }
	events, err := m.client(ClientOptions{WaitFor: wait}).Stream(context.Background(), "refund", mustToolkit(t, RequireApproval(c.tool("refund"))))
	if err != nil {
		t.Fatal(err)
	}
	var result *StreamEvent
	var final RunResult
	for e := range events {
		if e.Type == EventToolResult {
			result = &e
		}
		if e.Result != nil {
			final = *e.Result
		}
	}
	if result == nil || !result.Declined || !result.IsError || !strings.HasSuffix(result.Output, "declined: too late") {
		t.Fatalf("tool_result event = %+v", result)
	}
	if rec := final.ToolCalls[0]; !rec.Declined || rec.Edited || c.count() != 0 {
		t.Fatalf("record = %+v, runs %d", rec, c.count())
	}
}

// TestApprovalRequestNamesTheMCPServer: an MCP tool's approval says which
// configured server it runs on, and carries the schema to check edits with.
func TestApprovalRequestNamesTheMCPServer(t *testing.T) {
	schema := JSONSchema{"type": "object", "required": []any{"q"}}
	req := approval.Request(Tool{Name: "docs_search", Source: SourceMCP, InputSchema: schema, Server: "docs"}, "c1", map[string]any{"q": "x"}, "")
	if req.Data["server"] != "docs" || req.Data["source"] != "mcp" || req.Data["schema"] == nil {
		t.Fatalf("data = %v", req.Data)
	}
	if err := CheckApprovalEdit(req, Answer{ID: req.ID, Ok: true, Data: map[string]any{"args": map[string]any{}}}); err == nil || !strings.Contains(err.Error(), `missing required "q"`) {
		t.Fatalf("CheckApprovalEdit = %v", err)
	}
	if err := CheckApprovalEdit(req, Answer{ID: req.ID, Ok: true}); err != nil {
		t.Fatalf("no edit: %v", err)
	}
	if req := approval.Request(Tool{Name: "refund", Source: SourceNative}, "c2", nil, ""); req.Data["server"] != nil {
		t.Fatalf("a native tool names no server: %v", req.Data)
	}
}

// TestHookSuspensionIsAPendingMetric: a BeforeTool stand-in that suspends
// is the call's suspension: a tool metric tagged Pending, not an error.
func TestHookSuspensionIsAPendingMetric(t *testing.T) {
	var c counter
	var mu sync.Mutex
	var pending []MetricEvent
	m := refundScript(t, StyleOpenAI)
	hooks := &Hooks{BeforeTool: func(context.Context, BeforeToolEvent) (*ToolOverride, error) {
		r := Pending(Request{Kind: KindApproval, Prompt: "refund?"})
		return &ToolOverride{Result: &r}, nil
	}}
	onMetric := func(e MetricEvent) {
		if e.Kind == "tool" && e.Pending {
			mu.Lock()
			pending = append(pending, e)
			mu.Unlock()
		}
	}
	res, _ := m.client(ClientOptions{Hooks: hooks, OnMetric: onMetric}).Run(context.Background(), "refund", mustToolkit(t, c.tool("refund")))
	if res.Status != StatusPending || c.count() != 0 {
		t.Fatalf("status %s, tool ran %d times", res.Status, c.count())
	}
	if len(pending) != 1 || pending[0].Tool != "refund" || pending[0].IsError {
		t.Fatalf("pending metrics %+v", pending)
	}
}
