package core

import (
	"context"
	"strings"
	"testing"
)

// A tool with RunsOnDecline hears the decline of its own request: it runs
// again with a declined Answer, inline (WaitFor) and on resume alike, and
// what it says reaches the model as an error result. Issue 36: a remote A2A
// task waiting on the person's answer is cancelled on a decline.
func TestRunsOnDeclineHearsTheDecline(t *testing.T) {
	newTool := func(heard *[]Answer) Tool {
		return Tool{Name: "remote", RunsOnDecline: true, Execute: func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
			if tctx.Answer == nil {
				return Pending(Request{Kind: KindInput, Prompt: "Go ahead?"}), nil
			}
			*heard = append(*heard, *tctx.Answer)
			if !tctx.Answer.Ok {
				// IsError left false on purpose: the loop makes it an error.
				return ToolResult{Output: "cancelled the remote task: " + tctx.Answer.Reason}, nil
			}
			return ToolResult{Output: "went ahead"}, nil
		}}
	}
	script := func() *scriptedModel {
		return newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "remote", "")}}, turn{Text: "ok"})
	}

	t.Run("inline", func(t *testing.T) {
		var heard []Answer
		m := script()
		res, err := m.client(ClientOptions{WaitFor: func(r Request) (Answer, error) { return AnswerDeclined(r.ID, "not now"), nil }}).
			Run(context.Background(), "go", mustToolkit(t, newTool(&heard)))
		if err != nil || res.Status != StatusDone {
			t.Fatalf("res %+v err %v", res, err)
		}
		if len(heard) != 1 || heard[0].Ok || heard[0].Reason != "not now" {
			t.Fatalf("the tool heard %+v", heard)
		}
		if got := m.toolResults(2); len(got) != 1 || got[0] != "cancelled the remote task: not now" {
			t.Fatalf("model saw %q", got)
		}
		if len(res.ToolCalls) != 1 || !res.ToolCalls[0].IsError {
			t.Fatalf("a decline must be an error result: %+v", res.ToolCalls)
		}
	})

	t.Run("resume", func(t *testing.T) {
		var heard []Answer
		m := script()
		c := m.client(ClientOptions{})
		tk := mustToolkit(t, newTool(&heard))
		halted, err := c.Run(context.Background(), "go", tk)
		if err != nil || halted.Status != StatusPending {
			t.Fatalf("halted %+v err %v", halted, err)
		}
		done, err := c.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, AnswerDeclined(halted.Pending.ID, "no"))
		if err != nil || done.Status != StatusDone {
			t.Fatalf("done %+v err %v", done, err)
		}
		if len(heard) != 1 || heard[0].Ok {
			t.Fatalf("the tool heard %+v", heard)
		}
		if got := m.toolResults(2); len(got) != 1 || got[0] != "cancelled the remote task: no" {
			t.Fatalf("model saw %q", got)
		}
	})

	// A declined approval never runs a tool, RunsOnDecline or not.
	t.Run("approval", func(t *testing.T) {
		var heard []Answer
		ran := 0
		tl := newTool(&heard)
		inner := tl.Execute
		tl.Execute = func(args map[string]any, tctx *ToolContext) (ToolResult, error) { ran++; return inner(args, tctx) }
		m := script()
		_, err := m.client(ClientOptions{WaitFor: func(r Request) (Answer, error) { return AnswerDeclined(r.ID, "no"), nil }}).
			Run(context.Background(), "go", mustToolkit(t, RequireApproval(tl)))
		if err != nil {
			t.Fatal(err)
		}
		if ran != 0 {
			t.Fatalf("a declined approval ran the tool %d times", ran)
		}
		if got := m.toolResults(2); len(got) != 1 || !strings.Contains(got[0], "declined: no") {
			t.Fatalf("model saw %q", got)
		}
	})
}
