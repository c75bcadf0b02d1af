package a2a_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/tool"
)

// refundModel asks billing_desk_refund for task, then says what it read.
func refundModel(task string) core.GenerateFunc {
	return func(_ context.Context, req core.GenerateRequest) (core.GenerateResponse, error) {
		last := req.Messages[len(req.Messages)-1]
		if last["role"] == "tool" {
			return core.GenerateResponse{Text: "the desk said: " + last["content"].(string)}, nil
		}
		return core.GenerateResponse{ToolCalls: []core.ToolRequest{{ID: "c1", Name: "billing_desk_refund", Arguments: `{"task":"` + task + `"}`}}}, nil
	}
}

func deskToolkit(t *testing.T, a *fakeAgent) *core.Toolkit {
	t.Helper()
	tools, status := connect(t, a, deskCard, tool.A2AEnv{})
	if status["desk"].Status != tool.MCPConnected {
		t.Fatalf("%+v", status)
	}
	tk, err := core.CreateToolkit(context.Background(), core.Options{ExtraTools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// Through core's loop: the agent's question is the run's WaitFor request;
// an answer continues the remote task, and its artifact reaches the model.
func TestTheLoopAsksThePersonInline(t *testing.T) {
	a := newFakeAgent(true)
	var asked []core.Request
	client := core.CreateGenerateClient(refundModel("ask about 42"), core.ClientOptions{Model: "m",
		WaitFor: func(r core.Request) (core.Answer, error) {
			asked = append(asked, r)
			return core.Answer{ID: r.ID, Ok: true, Data: map[string]any{"reply": "go ahead"}}, nil
		}})
	res, err := client.Run(context.Background(), "refund", deskToolkit(t, a))
	if err != nil || res.Status != core.StatusDone {
		t.Fatalf("%+v %v", res, err)
	}
	if len(asked) != 1 || asked[0].Kind != core.KindInput || !strings.Contains(asked[0].Prompt, "Refund order 42?") {
		t.Fatalf("asked %+v", asked)
	}
	if res.Text != "the desk said: done: ask about 42 | go ahead" {
		t.Fatalf("text %q", res.Text)
	}
}

// Without WaitFor the run halts on the agent's question; RunWithAnswer —
// in a fresh toolkit, as another request or process would — continues the
// task, and a decline cancels it with the reason for the model.
func TestTheLoopHaltsAndResumes(t *testing.T) {
	a := newFakeAgent(true)
	client := core.CreateGenerateClient(refundModel("ask about 42"), core.ClientOptions{Model: "m"})
	halted, err := client.Run(context.Background(), "refund", deskToolkit(t, a))
	if err != nil || halted.Status != core.StatusPending || halted.Pending.Data["taskId"] != "task-1" {
		t.Fatalf("%+v %v", halted, err)
	}
	done, err := client.RunWithAnswer(context.Background(), deskToolkit(t, a), halted.Messages, *halted.Pending,
		core.AnswerOutput(halted.Pending.ID, "yes"))
	if err != nil || done.Text != "the desk said: done: ask about 42 | yes" {
		t.Fatalf("%+v %v", done, err)
	}

	halted, _ = client.Run(context.Background(), "refund", deskToolkit(t, a))
	declined, err := client.RunWithAnswer(context.Background(), deskToolkit(t, a), halted.Messages, *halted.Pending,
		core.AnswerDeclined(halted.Pending.ID, "wrong order"))
	if err != nil || declined.Status != core.StatusDone {
		t.Fatalf("%+v %v", declined, err)
	}
	if want := "the desk said: declined: wrong order — so the A2A task task-2 of billing desk was cancelled"; declined.Text != want {
		t.Fatalf("text %q, want %q", declined.Text, want)
	}
	if a.task("task-2").state != "canceled" {
		t.Fatal("the declined task was not cancelled")
	}
	if len(declined.ToolCalls) != 1 || !declined.ToolCalls[0].IsError {
		t.Fatalf("%+v", declined.ToolCalls)
	}
}
