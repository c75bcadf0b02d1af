package agents

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
)

// echoRuntime has one agent, "echo", that answers with its last user
// message; its model calls wait on gate when gate is set.
func echoRuntime(t *testing.T, gate chan struct{}, opts Options) (*Runtime, *Handle, *fakeModel) {
	t.Helper()
	model := newFakeModel(map[string]script{"echo": func(msgs []map[string]any) core.GenerateResponse {
		return core.GenerateResponse{Text: "echo: " + content(last(msgs))}
	}})
	if gate != nil {
		model.gates["echo"] = gate
	}
	a := New("echo", Spec{Soul: "echo"})
	opts.Generate, opts.Registry = model.generate, a.Registry()
	rt := NewRuntime(opts)
	h, err := rt.Spawn(rt.Root, "echo", nil)
	if err != nil {
		t.Fatal(err)
	}
	return rt, h, model
}

func TestPostAndWakeDrainCoalescedInbox(t *testing.T) {
	rt, h, model := echoRuntime(t, nil, Options{InboxCap: 5})
	defer rt.Close(rt.Root, nil)
	posts := []InboxItem{
		{From: "root", Channel: "peer", Text: "update 1"},
		{From: "external", Channel: "external", Text: "webhook"},
		{From: "clock", Channel: "timer", Text: "tick"},
		{From: "clock", Channel: "timer", Text: "tick"},
		{From: "clock", Channel: "timer", Text: "tick"},
	}
	for _, p := range posts {
		if r := rt.Post(h, p); !r.Ok {
			t.Fatalf("post refused: %s", r.Err)
		}
	}
	if r := rt.Post(h, InboxItem{From: "root", Channel: "peer", Text: "six"}); r.Ok || !strings.Contains(r.Err, "inbox full") {
		t.Errorf("post over the cap = %+v, want inbox full", r)
	}
	rt.Wake(h, "news")
	r := rt.Wait(h, 0)
	if r.Status != TaskStatusDone || r.Turns != 1 || model.callsFor("echo") != 1 {
		t.Fatalf("result = %+v after %d model calls, want one done turn", r, model.callsFor("echo"))
	}
	for _, want := range []string{"echo: news", "[inbox: 3 item(s)", "[from=root channel=peer] update 1",
		"[from=external channel=external (untrusted)] webhook", "tick (x3 coalesced)"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("turn input lacks %q:\n%s", want, r.Text)
		}
	}
	if rt.InboxLen(h) != 0 {
		t.Errorf("inbox = %d after the drain, want 0", rt.InboxLen(h))
	}
	// The transcript survives turns: the second wake sees the first.
	rt.Wake(h, "again")
	if r := rt.Wait(h, 0); r.Text != "echo: again" {
		t.Errorf("second turn = %q", r.Text)
	}
	rt.Close(h, nil)
	if r := rt.Post(h, InboxItem{Text: "late"}); r.Ok || !strings.Contains(r.Err, "closed") {
		t.Errorf("post after close = %+v, want refused", r)
	}
	if r := rt.Wake(h, "late"); r.Ok {
		t.Errorf("wake after close = %+v, want refused", r)
	}
}

func TestInterruptAbortsTurnKeepsInbox(t *testing.T) {
	gate := make(chan struct{})
	rt, h, model := echoRuntime(t, gate, Options{})
	defer rt.Close(rt.Root, nil)
	rt.Post(h, InboxItem{From: "root", Channel: "peer", Text: "keep me"})
	rt.Wake(h, "slow work")
	waitFor(t, func() bool { return model.callsFor("echo") == 1 })
	if rt.InboxLen(h) != 0 {
		t.Fatal("the running turn should have drained the inbox")
	}
	done := make(chan TaskResult, 1)
	go func() { done <- rt.Wait(h, 0) }()
	rt.Interrupt(h)
	r := <-done
	if r.Status != TaskStatusInterrupted || !r.IsError {
		t.Errorf("result = %+v, want interrupted", r)
	}
	if rt.StateOf(h) != StateIdle || rt.InboxLen(h) != 1 {
		t.Errorf("after interrupt: state %s inbox %d, want idle with the drained item back", rt.StateOf(h), rt.InboxLen(h))
	}
	close(gate)
	rt.Wake(h, "again")
	if r := rt.Wait(h, 0); r.Status != TaskStatusDone || !strings.Contains(r.Text, "keep me") {
		t.Errorf("the agent survives an interrupt: got %+v", r)
	}
}

func TestWaitTimeoutLeavesAgentRunning(t *testing.T) {
	gate := make(chan struct{})
	rt, h, _ := echoRuntime(t, gate, Options{})
	defer rt.Close(rt.Root, nil)
	rt.Wake(h, "slow")
	if r := rt.Wait(h, 10*time.Millisecond); r.Status != TaskStatusTimeout {
		t.Errorf("status = %q, want timeout", r.Status)
	}
	if rt.StateOf(h) != StateRunning {
		t.Errorf("state = %s, want still running", rt.StateOf(h))
	}
	close(gate)
	if r := rt.Wait(h, 0); r.Status != TaskStatusDone {
		t.Errorf("status = %q", r.Status)
	}
}

func TestCloseParentWithRunningChildren(t *testing.T) {
	base := runtime.NumGoroutine()
	st := newSupportTeam(t)
	st.model.gates["billing"] = make(chan struct{}) // billing never answers on its own
	var mu sync.Mutex
	var order []string
	onClose := func(h *Handle, reason string) {
		mu.Lock()
		order = append(order, h.ID+":"+reason)
		mu.Unlock()
	}
	st.support.Spec.OnClose, st.billing.Spec.OnClose = onClose, onClose
	rt := NewRuntime(Options{Generate: st.model.generate, Registry: st.support.Registry(), Shutdown: 20 * time.Millisecond})
	h, err := rt.Spawn(rt.Root, "support", nil)
	if err != nil {
		t.Fatal(err)
	}
	rt.Wake(h, "review order 42")
	waitFor(t, func() bool { return st.model.callsFor("billing") == 1 })
	rt.Close(rt.Root, nil)
	mu.Lock()
	got := strings.Join(order, " ")
	mu.Unlock()
	if want := "root/support.1/billing.1:closed root/support.1:closed"; got != want {
		t.Errorf("close order = %q, want leaf first %q", got, want)
	}
	for _, v := range rt.List() {
		if v.State != StateClosed {
			t.Errorf("%s is %s, want closed", v.ID, v.State)
		}
	}
	// As in the port: the child's turn is aborted ("interrupted"), support's
	// task call returns that as an error result, and support's own turn,
	// given the grace, answers — so support reports "done" (docs/agents.md,
	// "Closing a parent whose child is mid-turn").
	if r := rt.Wait(h, 0); r.Status != TaskStatusDone || !strings.Contains(r.Text, "[interrupted]") {
		t.Errorf("support's last result = %+v, want its report of the interrupted child", r)
	}
	if billing, ok := rt.Handle("root/support.1/billing.1"); !ok {
		t.Error("billing's handle is gone after the close")
	} else if r := rt.Wait(billing, 0); r.Status != TaskStatusInterrupted {
		t.Errorf("billing's last result = %+v, want interrupted", r)
	}
	if n := settledGoroutines(base); n > base {
		t.Errorf("goroutines: %d after Close, %d before", n, base)
	}
}

func TestConcurrencyQueueTransfersSlots(t *testing.T) {
	gate := make(chan struct{})
	rt, parent, model := echoRuntime(t, nil, Options{})
	defer rt.Close(rt.Root, nil)
	model.gates["echo"] = gate
	rt.mu.Lock()
	parent.eff.maxConcurrent = 1
	rt.mu.Unlock()
	a, _ := rt.Spawn(parent, "echo", nil)
	b, _ := rt.Spawn(parent, "echo", nil)
	rt.Wake(a, "first")
	rt.Wake(b, "second")
	waitFor(t, func() bool { return model.callsFor("echo") == 1 })
	if rt.StateOf(b) != StateIdle {
		t.Errorf("b is %s, want queued (idle) behind a", rt.StateOf(b))
	}
	close(gate)
	if r := rt.Wait(b, 0); r.Text != "echo: second" {
		t.Errorf("b = %+v, want it run after a", r)
	}
	if r := rt.Wait(a, 0); r.Text != "echo: first" {
		t.Errorf("a = %+v", r)
	}
}

func TestRunTurnNeedsIdleHandle(t *testing.T) {
	gate := make(chan struct{})
	rt, h, _ := echoRuntime(t, gate, Options{})
	defer rt.Close(rt.Root, nil)
	close(gate)
	if r := rt.RunTurn(h, "hi"); r.Status != TaskStatusDone || r.Text != "echo: hi" {
		t.Errorf("RunTurn = %+v", r)
	}
	rt.Close(h, nil)
	if r := rt.RunTurn(h, "hi"); r.Status != TaskStatusClosed {
		t.Errorf("RunTurn on closed = %+v", r)
	}
}

// TestCloseWithdrawsAnInlineQuestion: a context-aware interpreter that
// waits on a person is told to withdraw when the runtime closes.
func TestCloseWithdrawsAnInlineQuestion(t *testing.T) {
	base := runtime.NumGoroutine()
	st := newSupportTeam(t)
	asked, withdrawn := make(chan core.Request, 1), make(chan struct{})
	st.support.Spec.WaitForContext = func(ctx context.Context, req core.Request) (core.Answer, error) {
		asked <- req
		<-ctx.Done()
		close(withdrawn)
		return core.Answer{}, ctx.Err()
	}
	rt := NewRuntime(Options{Generate: st.model.generate, Registry: st.support.Registry(), Shutdown: 10 * time.Millisecond})
	h, _ := rt.Spawn(rt.Root, "support", nil)
	rt.Wake(h, "review order 42")
	req := <-asked
	if pathString(&req) != "support/billing" {
		t.Errorf("asked with path %q", pathString(&req))
	}
	if v := rt.List(); v[1].State != StateSuspended || v[1].PendingKind != core.KindApproval {
		t.Errorf("billing while asked = %+v", v[1])
	}
	rt.Close(rt.Root, nil)
	select { // core hands the cancellation on asynchronously
	case <-withdrawn:
	case <-time.After(2 * time.Second):
		t.Error("the question was not withdrawn")
	}
	if st.refunds.count() != 0 {
		t.Error("refund ran")
	}
	if n := settledGoroutines(base); n > base {
		t.Errorf("goroutines: %d after Close, %d before", n, base)
	}
}

// TestTurnGateNeverDeadlocksADelegatingParent: with one model call allowed
// at a time, a parent waiting on its child still finishes, because the
// gate holds a model call, never a whole turn.
func TestTurnGateNeverDeadlocksADelegatingParent(t *testing.T) {
	st := newSupportTeam(t)
	opts := st.options()
	opts.MaxConcurrentTurns = 1
	opts.WaitFor = func(r core.Request) (core.Answer, error) { return core.Answer{ID: r.ID, Ok: true}, nil }
	res, rt := st.support.Run(opts, "review order 42")
	if res.Status != TaskStatusDone || rt.MaxObservedConcurrentTurns() != 1 {
		t.Errorf("result %+v with %d model calls at once, want done with 1", res, rt.MaxObservedConcurrentTurns())
	}
}
