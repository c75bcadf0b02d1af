package agents

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
)

func TestLoopRunsResumesAndGates(t *testing.T) {
	st := newSupportTeam(t)
	tk, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false, ExtraTools: st.billing.Spec.Tools})
	if err != nil {
		t.Fatal(err)
	}
	client := generateClient(st.model.generate, core.ClientOptions{Model: "m", SystemPrompt: "billing"})
	verified := 0
	st.billing.Spec.Completion = &Completion{MaxAttempts: 2, Verify: func(r core.RunResult) (bool, string) {
		verified++
		return len(r.ToolCalls) > 0, "no refund recorded"
	}}
	l := st.billing.Loop(client, tk)
	ctx := context.Background()

	out, err := l.Run(ctx, "refund order 42", RunOpts{})
	if err != nil || out.Status != TaskStatusPending || l.Status() != TaskStatusPending {
		t.Fatalf("run = %+v, %v; want pending", out, err)
	}
	if _, err := l.Run(ctx, "something else", RunOpts{}); err == nil {
		t.Error("Run while pending should fail")
	}
	out, err = l.Resume(ctx, core.Answer{ID: out.Result.Pending.ID, Ok: true})
	if err != nil || out.Status != TaskStatusDone || out.Text != "billing: refunded order 42" {
		t.Fatalf("resume = %+v, %v", out, err)
	}
	if verified != 1 || out.Attempts != 1 || l.Status() != "idle" || l.Turns() != 2 {
		t.Errorf("verified %d, attempts %d, status %q, turns %d", verified, out.Attempts, l.Status(), l.Turns())
	}
	if _, err := l.Resume(ctx, core.Answer{ID: "x", Ok: true}); err != ErrNotSuspended {
		t.Errorf("resume without pending: %v", err)
	}

	writer := New("writer", Spec{Completion: &Completion{MaxAttempts: 2, Verify: func(r core.RunResult) (bool, string) {
		return false, "never good"
	}}})
	wclient := generateClient(func(context.Context, core.GenerateRequest) (core.GenerateResponse, error) {
		return core.GenerateResponse{Text: "draft"}, nil
	}, core.ClientOptions{Model: "m"})
	wout, err := writer.Loop(wclient, tk).Run(ctx, "write", RunOpts{})
	if err != nil || wout.Status != TaskStatusIncomplete || wout.Attempts != 2 || !strings.Contains(wout.StoppedBy, "completion.verify failed 2×") {
		t.Errorf("gated = %+v, %v", wout, err)
	}
}

// TestLoopRunOptsClientSwapsTheModelForOneCall: a call made with another
// client reaches that client's model and keeps the conversation.
func TestLoopRunOptsClientSwapsTheModelForOneCall(t *testing.T) {
	var seen []string
	gen := func(_ context.Context, req core.GenerateRequest) (core.GenerateResponse, error) {
		seen = append(seen, req.Model)
		return core.GenerateResponse{Text: "ok " + req.Model}, nil
	}
	tk, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false})
	if err != nil {
		t.Fatal(err)
	}
	a := New("writer", Spec{})
	l := a.Loop(generateClient(gen, core.ClientOptions{Model: "small"}), tk)
	ctx := context.Background()
	if _, err := l.Run(ctx, "one", RunOpts{}); err != nil {
		t.Fatal(err)
	}
	out, err := l.Run(ctx, "two", RunOpts{Client: generateClient(gen, core.ClientOptions{Model: "large"})})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(seen, ",") != "small,large" || out.Turns != 2 || len(out.Result.Messages) < 4 {
		t.Errorf("models %v, turns %d, %d messages", seen, out.Turns, len(out.Result.Messages))
	}
}
