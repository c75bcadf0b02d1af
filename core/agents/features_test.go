package agents

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/wasm/core"
)

func TestMetricsAndEventsCarryPath(t *testing.T) {
	st := newSupportTeam(t)
	var mu sync.Mutex
	metrics := map[string]int{}
	var events []string
	opts := st.options()
	opts.OnMetric = func(e MetricEvent) {
		mu.Lock()
		metrics[e.Kind+" "+strings.Join(e.Path, "/")]++
		mu.Unlock()
	}
	opts.OnEvent = func(e Event) {
		mu.Lock()
		if e.Type == "spawned" || e.Type == "suspended" {
			events = append(events, e.Type+" "+strings.Join(e.Path, "/"))
		}
		mu.Unlock()
	}
	res, rt := st.support.Run(opts, "review order 42")
	defer rt.Close(rt.Root, nil)
	if _, err := rt.Resume(core.Answer{ID: res.Pending.ID, Ok: true}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if metrics["llm support"] != 2 || metrics["llm support/billing"] != 2 || metrics["tool support/billing"] < 1 {
		t.Errorf("metrics by path = %v", metrics)
	}
	want := "spawned support,spawned support/billing,suspended support/billing,suspended support"
	if got := strings.Join(events, ","); got != want {
		t.Errorf("events = %s, want %s", got, want)
	}
}

func TestCompletionGate(t *testing.T) {
	for _, tc := range []struct {
		name        string
		passOn      int // the attempt that verifies (0: never)
		status      string
		modelCalls  int
		textContain string
	}{
		{"passes on retry", 2, TaskStatusDone, 2, "attempt 2"},
		{"never passes", 0, TaskStatusIncomplete, 3, "completion.verify failed 3×"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := newFakeModel(nil)
			model.scripts = map[string]script{"writer": func(msgs []map[string]any) core.GenerateResponse {
				return core.GenerateResponse{Text: fmt.Sprintf("attempt %d", model.callsFor("writer"))}
			}}
			a := New("writer", Spec{Soul: "writer", Completion: &Completion{MaxAttempts: 3, Verify: func(r core.RunResult) (bool, string) {
				return tc.passOn > 0 && r.Text == fmt.Sprintf("attempt %d", tc.passOn), "no tests yet"
			}}})
			res, _ := a.Run(Options{Generate: model.generate}, "write it")
			if res.Status != tc.status || !strings.Contains(res.Text, tc.textContain) || model.callsFor("writer") != tc.modelCalls {
				t.Errorf("result = %+v after %d model calls", res, model.callsFor("writer"))
			}
			if tc.status == TaskStatusIncomplete && res.Limit != LimitCompletion {
				t.Errorf("limit = %q, want completion", res.Limit)
			}
		})
	}
}

// TestLeafSuspendsAgainAfterResume: billing needs two approvals; the
// second halt presents the new request at the root, and the parent's
// halted turn still resumes once the leaf is done.
func TestLeafSuspendsAgainAfterResume(t *testing.T) {
	st := newSupportTeam(t)
	st.model.scripts["billing"] = func(msgs []map[string]any) core.GenerateResponse {
		done := 0
		for _, m := range msgs {
			if m["role"] == "tool" {
				done++
			}
		}
		if done < 2 {
			return st.model.toolCall("refund", fmt.Sprintf(`{"order":%d}`, 42+done))
		}
		return core.GenerateResponse{Text: "billing: two refunds"}
	}
	res, rt := st.support.Run(st.options(), "review orders")
	defer rt.Close(rt.Root, nil)
	first := res.Pending
	second, err := rt.Resume(core.Answer{ID: first.ID, Ok: true})
	if err != nil {
		t.Fatal(err)
	}
	if second.Status != TaskStatusPending || second.Pending.ID == first.ID || pathString(second.Pending) != "support/billing" {
		t.Fatalf("second = %+v, want a new pending from support/billing", second)
	}
	if args, _ := second.Pending.Data["args"].(map[string]any); args["order"] != float64(43) && args["order"] != 43 {
		t.Errorf("second request args = %v", second.Pending.Data["args"])
	}
	if r := rt.Wait(rt.Root.children[0], 0); r.Pending == nil || r.Pending.ID != second.Pending.ID {
		t.Errorf("support presents %+v, want the new request", r.Pending)
	}
	final, err := rt.Resume(core.Answer{ID: second.Pending.ID, Ok: true})
	if err != nil {
		t.Fatal(err)
	}
	if final.Status != TaskStatusDone || final.Text != "support: billing: two refunds" || st.refunds.count() != 2 {
		t.Errorf("final = %+v, refunds %d", final, st.refunds.count())
	}
}

func TestInterruptWithdrawsDurablePending(t *testing.T) {
	st := newSupportTeam(t)
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusPending {
		t.Fatalf("status = %q", res.Status)
	}
	leaf := rt.Root.children[0].children[0]
	rt.Interrupt(leaf)
	if rt.StateOf(leaf) != StateIdle || rt.Inspect(leaf).PendingKind != "" {
		t.Errorf("leaf = %+v, want idle without a pending request", rt.Inspect(leaf))
	}
}

// TestAsToolSuspendsLikeATool puts the team behind one tool of a plain
// core client: the halt surfaces at the client, and RunWithAnswer resumes
// the team through the tool's re-run.
func TestAsToolSuspendsLikeATool(t *testing.T) {
	st := newSupportTeam(t)
	outer := newFakeModel(nil)
	outer.scripts = map[string]script{"front desk": outer.callThenReport("support", `{"prompt":"review order 42"}`, "desk: ")}
	tk, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false, ExtraTools: []core.Tool{st.support.AsTool(st.options())}})
	if err != nil {
		t.Fatal(err)
	}
	client := generateClient(outer.generate, core.ClientOptions{Model: "m", SystemPrompt: "front desk"})
	halted, err := client.Run(context.Background(), "help", tk)
	if err != nil || halted.Status != core.StatusPending {
		t.Fatalf("run = %+v, %v; want pending", halted.Status, err)
	}
	if pathString(halted.Pending) != "support/billing" {
		t.Errorf("path = %q", pathString(halted.Pending))
	}
	done, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, core.Answer{ID: halted.Pending.ID, Ok: true})
	if err != nil {
		t.Fatal(err)
	}
	if done.Text != "desk: support: billing: refunded order 42" || st.refunds.count() != 1 {
		t.Errorf("text = %q, refunds %d", done.Text, st.refunds.count())
	}
}

func TestStreamEventsCarryPath(t *testing.T) {
	st := newSupportTeam(t)
	var mu sync.Mutex
	var seen []string
	opts := st.options()
	opts.OnStream = func(e StreamEvent) {
		mu.Lock()
		defer mu.Unlock()
		switch e.Type {
		case core.EventText:
			seen = append(seen, strings.Join(e.Path, "/")+" text "+e.Delta)
		case core.EventToolCall, core.EventToolResult, core.EventPending:
			seen = append(seen, strings.Join(e.Path, "/")+" "+e.Type+" "+e.Name)
		}
	}
	res, rt := st.support.Run(opts, "review order 42")
	defer rt.Close(rt.Root, nil)
	done, err := rt.Resume(core.Answer{ID: res.Pending.ID, Ok: true})
	if err != nil || done.Text != "support: billing: refunded order 42" {
		t.Fatalf("resume = %+v, %v", done, err)
	}
	mu.Lock()
	defer mu.Unlock()
	got := strings.Join(seen, "\n")
	for _, want := range []string{
		"support tool_call task", "support/billing tool_call refund", "support/billing pending ",
		"support/billing tool_result refund", "support/billing text billing: refunded order 42",
		"support tool_result task", "support text support: billing: refunded order 42",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("stream lacks %q; got:\n%s", want, got)
		}
	}
}

// TestTwoDelegationsInOneTurn: support hands two refunds to billing in one
// reply; each approval halts the run in turn, and both reach support.
func TestTwoDelegationsInOneTurn(t *testing.T) {
	st := newSupportTeam(t)
	st.model.scripts["support"] = func(msgs []map[string]any) core.GenerateResponse {
		if m := last(msgs); m["role"] == "tool" {
			var outs []string
			for _, m := range msgs {
				if m["role"] == "tool" {
					outs = append(outs, content(m))
				}
			}
			return core.GenerateResponse{Text: "support: " + strings.Join(outs, " + ")}
		}
		a := st.model.toolCall("task", `{"agent":"billing","prompt":"refund order 42"}`)
		b := st.model.toolCall("task", `{"agent":"billing","prompt":"refund order 43"}`)
		return core.GenerateResponse{ToolCalls: append(a.ToolCalls, b.ToolCalls...)}
	}
	st.model.scripts["billing"] = func(msgs []map[string]any) core.GenerateResponse {
		if m := last(msgs); m["role"] == "tool" {
			return core.GenerateResponse{Text: "billing: " + content(m)}
		}
		order := strings.TrimPrefix(content(msgs[1]), "refund order ")
		return st.model.toolCall("refund", `{"order":`+order+`}`)
	}
	res, rt := st.support.Run(st.options(), "review orders 42 and 43")
	defer rt.Close(rt.Root, nil)
	seen := map[string]bool{}
	for i := 0; res.Status == TaskStatusPending && i < 4; i++ {
		if seen[res.Pending.ID] || pathString(res.Pending) != "support/billing" {
			t.Fatalf("pending %d = %+v (repeated or wrong path)", i, res.Pending)
		}
		seen[res.Pending.ID] = true
		var err error
		if res, err = rt.Resume(core.Answer{ID: res.Pending.ID, Ok: true}); err != nil {
			t.Fatal(err)
		}
	}
	if res.Status != TaskStatusDone || len(seen) != 2 || st.refunds.count() != 2 {
		t.Fatalf("result = %+v after %d approvals, %d refunds", res, len(seen), st.refunds.count())
	}
	if !strings.Contains(res.Text, "refunded order 42") || !strings.Contains(res.Text, "refunded order 43") {
		t.Errorf("text = %q, want both refunds", res.Text)
	}
}

// TestStreamAnnouncesTaskBeforeMembersEvents: a task call reaches the
// observer before any event of the member it starts, even when the
// observer is slow to take the caller's events (the caller's drive reads
// them on its own goroutine, while the member's run on the task's). The
// observer holds the caller's task call until the member has sent an event
// (the order this test forbids) or the task call is waiting for its
// announcement to be handed on (streamFlow): nothing here waits on time.
func TestStreamAnnouncesTaskBeforeMembersEvents(t *testing.T) {
	st := newSupportTeam(t)
	memberSent := make(chan struct{})
	taskWaits := make(chan struct{})
	var once, waitOnce sync.Once
	flowWaitHook = func() { waitOnce.Do(func() { close(taskWaits) }) }
	t.Cleanup(func() { flowWaitHook = nil })
	var mu sync.Mutex
	var seen []string
	opts := st.options()
	opts.OnStream = func(e StreamEvent) {
		if len(e.Path) > 1 {
			once.Do(func() { close(memberSent) })
		} else if e.Type == core.EventToolCall && e.Name == "task" {
			select {
			case <-memberSent:
			case <-taskWaits:
			}
		}
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, strings.Join(e.Path, "/")+" "+e.Type+" "+e.Name)
	}
	res, rt := st.support.Run(opts, "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusPending {
		t.Fatalf("run = %+v; want pending", res)
	}
	mu.Lock()
	defer mu.Unlock()
	task, member := -1, -1
	for i, s := range seen {
		if task < 0 && s == "support tool_call task" {
			task = i
		}
		if member < 0 && strings.HasPrefix(s, "support/billing ") {
			member = i
		}
	}
	if task < 0 || member < 0 || member < task {
		t.Fatalf("the task call (%d) must come before the member's first event (%d):\n%s", task, member, strings.Join(seen, "\n"))
	}
}
