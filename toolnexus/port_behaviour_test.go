package toolnexus

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// Conformance with the Go port's behaviour: each test states one
// rule a program written for the port relies on.

// TestPortWaitForRunsConcurrently: when three calls of one turn
// suspend, WaitFor is called for each at once — every WaitFor here waits
// until all three are open, so a one-at-a-time loop fails the deadline.
func TestPortWaitForRunsConcurrently(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI,
		turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"1"}`), call("c2", "refund", `{"order":"2"}`), call("c3", "refund", `{"order":"3"}`)}},
		turn{Text: "all refunded"})
	var mu sync.Mutex
	open := 0
	all := make(chan struct{})
	wait := func(r Request) (Answer, error) {
		mu.Lock()
		open++
		if open == 3 {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return Answer{ID: r.ID, Ok: true}, nil
		case <-time.After(5 * time.Second):
			return AnswerDeclined(r.ID, "the other questions never arrived"), nil
		}
	}
	res, err := m.client(ClientOptions{WaitFor: wait}).Run(context.Background(), "refund 1, 2, 3", mustToolkit(t, RequireApproval(c.tool("refund"))))
	if err != nil || res.Status != StatusDone || c.count() != 3 {
		t.Fatalf("res %+v err %v runs %d", res, err, c.count())
	}
	got := m.toolResults(2)
	for i, want := range []string{"order 1", "order 2", "order 3"} {
		if !strings.Contains(got[i], want) {
			t.Fatalf("results = %q (want call order kept)", got)
		}
	}
	for i, rec := range res.ToolCalls {
		if rec.ID != []string{"c1", "c2", "c3"}[i] {
			t.Fatalf("records out of call order: %+v", res.ToolCalls)
		}
	}
}

// TestPortHaltKeepsFinishedCalls: without WaitFor the turn's calls still
// all run; the run halts on the first suspension, and a call that finished
// keeps its result (it does not run again on resume).
func TestPortHaltKeepsFinishedCalls(t *testing.T) {
	var refunds, looks counter
	m := newScripted(t, StyleOpenAI,
		turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"1"}`), call("c2", "look", `{"order":"1"}`)}},
		turn{Text: "done"})
	client := m.client(ClientOptions{})
	tk := mustToolkit(t, RequireApproval(refunds.tool("refund")), looks.tool("look"))
	halted, err := client.Run(context.Background(), "refund and look", tk)
	if err != nil || halted.Status != StatusPending || looks.count() != 1 || refunds.count() != 0 {
		t.Fatalf("halted %+v err %v looks %d refunds %d", halted, err, looks.count(), refunds.count())
	}
	assertBalanced(t, halted.Messages)
	res, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, Answer{ID: halted.Pending.ID, Ok: true})
	if err != nil || res.Status != StatusDone || looks.count() != 1 || refunds.count() != 1 {
		t.Fatalf("res %+v err %v looks %d refunds %d", res, err, looks.count(), refunds.count())
	}
	if got := m.toolResults(2); len(got) != 2 || !strings.Contains(got[1], "look ran") {
		t.Fatalf("results = %q", got)
	}
}

// TestPortAskWithoutIDIsRun: Ask with id "" is a stateless Run and the
// store is never touched.
func TestPortAskWithoutIDIsRun(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Text: "hi"})
	store := &countingStore{MemoryStore: NewMemoryStore()}
	res, err := m.client(ClientOptions{Store: store}).Ask(context.Background(), "hello", mustToolkit(t), "")
	if err != nil || res.Status != StatusDone || res.Text != "hi" || store.calls != 0 {
		t.Fatalf("res %+v err %v store calls %d", res, err, store.calls)
	}
}

type countingStore struct {
	*MemoryStore
	calls int
}

func (s *countingStore) Get(id string) ([]any, error) { s.calls++; return s.MemoryStore.Get(id) }
func (s *countingStore) Save(id string, m []any) error {
	s.calls++
	return s.MemoryStore.Save(id, m)
}

// TestPortRelayNamedLikeBuiltin: a relay tool may not take a built-in's
// name (bash included), even with built-ins off; a host tool may.
func TestPortRelayNamedLikeBuiltin(t *testing.T) {
	native := NativeTool("read", "host read", nil, func(context.Context, map[string]any) (string, error) { return "", nil })
	tests := []struct {
		name    string
		tools   []Tool
		wantErr string
	}{
		{"relay read", []Tool{RelayTool("read", "", nil)}, "[read]"},
		{"relay bash", []Tool{RelayTool("bash", "", nil)}, "[bash]"},
		{"two, sorted", []Tool{RelayTool("write", "", nil), RelayTool("apply_patch", "", nil)}, "[apply_patch write]"},
		{"relay other name", []Tool{RelayTool("lookup", "", nil)}, ""},
		{"native read", []Tool{native}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CreateToolkit(context.Background(), Options{Builtins: false, ExtraTools: tc.tools})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), "relay tool name collides with a built-in tool: "+tc.wantErr)):
				t.Fatalf("err = %v, want the collision %s", err, tc.wantErr)
			}
		})
	}
}

// TestPortTimeoutWhileWaiting: TimeoutMs ending a run whose WaitFor is
// parked gives the port's shape — *RunTimeoutError, Status "incomplete",
// Limit "timeout" — and (core's addition) a transcript RunWithAnswer can
// still finish.
func TestPortTimeoutWhileWaiting(t *testing.T) {
	var c counter
	m := refundScript(t, StyleOpenAI)
	client := m.client(ClientOptions{TimeoutMs: 30, WaitFor: func(Request) (Answer, error) { select {} }})
	tk := mustToolkit(t, RequireApproval(c.tool("refund")))
	res, err := client.Run(context.Background(), "refund", tk)
	var timeout *RunTimeoutError
	if !errors.As(err, &timeout) || timeout.TimeoutMs != 30 || err.Error() != "run timeout after 30ms" {
		t.Fatalf("err = %v", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrWaitCancelled) {
		t.Fatalf("err %v must match DeadlineExceeded and ErrWaitCancelled", err)
	}
	if res.Status != RunStatusIncomplete || res.Limit != RunLimitTimeout || res.Pending == nil {
		t.Fatalf("res = %+v", res)
	}
	assertBalanced(t, res.Messages)
	done, err := client.RunWithAnswer(context.Background(), tk, res.Messages, *res.Pending, Answer{ID: res.Pending.ID, Ok: true})
	if err != nil || done.Status != StatusDone || c.count() != 1 {
		t.Fatalf("resumed %+v err %v runs %d", done, err, c.count())
	}
}

// TestPortCallerCancelIsNotATimeout: a caller's own deadline is not the
// run's TimeoutMs: the halt stays a durable "pending" with plain ctx errors.
func TestPortCallerCancelIsNotATimeout(t *testing.T) {
	var c counter
	m := refundScript(t, StyleOpenAI)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	res, err := m.client(ClientOptions{TimeoutMs: 60_000, WaitFor: func(Request) (Answer, error) { select {} }}).
		Run(ctx, "refund", mustToolkit(t, RequireApproval(c.tool("refund"))))
	var timeout *RunTimeoutError
	if errors.As(err, &timeout) || !errors.Is(err, ErrWaitCancelled) || res.Status != StatusPending {
		t.Fatalf("res %+v err %v", res, err)
	}
}

// TestPortMissingRelayOutput: an Ok answer that carries no output for a
// relay call is worded as the port words it, inline and on resume.
func TestPortMissingRelayOutput(t *testing.T) {
	script := func() *scriptedModel {
		return newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("r1", "lookup", `{"q":"a"}`)}}, turn{Text: "ok"})
	}
	tk := mustToolkit(t, RelayTool("lookup", "host lookup", nil))
	t.Run("inline", func(t *testing.T) {
		m := script()
		wait := func(r Request) (Answer, error) { return Answer{ID: r.ID, Ok: true}, nil }
		if _, err := m.client(ClientOptions{WaitFor: wait}).Run(context.Background(), "look", tk); err != nil {
			t.Fatal(err)
		}
		want := `relay answer for lookup carries no "output" — build it with AnswerOutput(id, output)`
		if got := m.toolResults(2); len(got) != 1 || got[0] != want {
			t.Fatalf("result = %q", got)
		}
	})
	t.Run("resume", func(t *testing.T) {
		m := script()
		client := m.client(ClientOptions{})
		halted, _ := client.Run(context.Background(), "look", tk)
		if _, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, Answer{ID: halted.Pending.ID, Ok: true}); err != nil {
			t.Fatal(err)
		}
		if got := m.toolResults(2); len(got) != 1 || got[0] != "no result supplied on resume for lookup" {
			t.Fatalf("result = %q", got)
		}
	})
}

// TestPortStreamWithIDAndAskStream: both keep the conversation in the
// store like Ask; AskStream hands text deltas to its callback and returns
// the result; an empty id leaves the store alone.
func TestPortStreamWithIDAndAskStream(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Text: "first answer"}, turn{Text: "second answer"}, turn{Text: "third"})
	store := &countingStore{MemoryStore: NewMemoryStore()}
	client := m.client(ClientOptions{Store: store})
	tk := mustToolkit(t)
	events, err := client.StreamWithID(context.Background(), "one", tk, "conv-1")
	if err != nil {
		t.Fatal(err)
	}
	for range events {
	}
	var deltas strings.Builder
	res, err := client.AskStream(context.Background(), "two", tk, "conv-1", func(d string) { deltas.WriteString(d) })
	if err != nil || res.Text != "second answer" || deltas.String() != "second answer" {
		t.Fatalf("res %+v err %v deltas %q", res, err, deltas.String())
	}
	if n := len(m.sent()[1].Body.Get("messages").Array()); n != 3 {
		t.Fatalf("second call sent %d messages, want the first exchange plus the prompt", n)
	}
	stored, _ := client.ConversationStore().Get("conv-1")
	if len(stored) != 4 {
		t.Fatalf("stored %d messages, want 4", len(stored))
	}
	before := store.calls
	if _, err := client.AskStream(context.Background(), "three", tk, "", func(string) {}); err != nil || store.calls != before {
		t.Fatalf("err %v, store calls %d → %d", err, before, store.calls)
	}
}

// TestPortConversationSend: Send keeps the transcript in the exported
// Messages field; Reset forgets it.
func TestPortConversationSend(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Text: "hello Ada"}, turn{Text: "you are Ada"}, turn{Text: "who?"})
	conv := m.client(ClientOptions{}).Conversation(mustToolkit(t))
	if _, err := conv.Send(context.Background(), "I am Ada"); err != nil || len(conv.Messages) != 2 {
		t.Fatalf("err %v messages %d", err, len(conv.Messages))
	}
	if res, err := conv.Send(context.Background(), "who am I?"); err != nil || res.Text != "you are Ada" || len(conv.Messages) != 4 {
		t.Fatalf("res %+v err %v", res, err)
	}
	conv.Reset()
	if _, err := conv.Send(context.Background(), "who am I?"); err != nil || len(conv.Messages) != 2 {
		t.Fatalf("after Reset: err %v messages %d", err, len(conv.Messages))
	}
	if n := len(m.sent()[2].Body.Get("messages").Array()); n != 1 {
		t.Fatalf("after Reset the model saw %d messages, want 1", n)
	}
}

// TestPortMessagesAreMaps: RunResult.Messages holds decoded maps, as in
// the port, and they work as history.
func TestPortMessagesAreMaps(t *testing.T) {
	m := newScripted(t, StyleAnthropic, turn{Text: "hello"}, turn{Text: "again"})
	client := m.client(ClientOptions{})
	res, err := client.Run(context.Background(), "hi", mustToolkit(t))
	if err != nil || len(res.Messages) != 2 {
		t.Fatalf("res %+v err %v", res, err)
	}
	if first, isMap := res.Messages[0].(map[string]any); !isMap || first["role"] != "user" {
		t.Fatalf("Messages[0] = %#v", res.Messages[0])
	}
	if _, err := client.RunWithHistory(context.Background(), "more", mustToolkit(t), res.Messages); err != nil {
		t.Fatalf("history: %v", err)
	}
	if n := len(m.sent()[1].Body.Get("messages").Array()); n != 3 {
		t.Fatalf("history sent %d messages, want 3", n)
	}
}

// TestPortHaltLeavesUnrunCallsOut: a turn that halts on its first
// suspension leaves the calls it did not run without a result in Messages,
// as the port does; RunWithAnswer then runs them.
func TestPortHaltLeavesUnrunCallsOut(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		var c counter
		m := newScripted(t, style,
			turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"1"}`), call("c2", "refund", `{"order":"2"}`)}},
			turn{Text: "done"})
		client := m.client(ClientOptions{})
		tk := mustToolkit(t, RequireApproval(c.tool("refund")))
		res, err := client.Run(context.Background(), "refund both", tk)
		if err != nil || res.Status != StatusPending {
			t.Fatalf("%s: res %+v err %v", style, res, err)
		}
		text, _ := marshalJSON(res.Messages)
		if !strings.Contains(string(text), `"c1"`) || strings.Contains(string(text), "not-run") {
			t.Fatalf("%s: halted transcript %s", style, text)
		}
		next, err := client.RunWithAnswer(context.Background(), tk, res.Messages, *res.Pending, AnswerOutput(res.Pending.ID, nil))
		if err != nil || next.Status != StatusPending || c.count() != 1 {
			t.Fatalf("%s: resume: status %s err %v ran %d", style, next.Status, err, c.count())
		}
	}
}
