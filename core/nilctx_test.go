package core

import (
	"context"
	"encoding/json"
	"testing"
)

// Issue 15: Stream(nil, …) crashed the process and Run(nil, …) said "run
// panicked". Every exported call that takes a context treats nil as
// context.Background(), as the Go port does.
func TestNilContextIsBackground(t *testing.T) {
	var nilCtx context.Context
	approve := func(r Request) (Answer, error) { return Answer{ID: r.ID, Ok: true}, nil }
	script := func() *scriptedModel {
		return newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}}, turn{Text: "done"})
	}
	halted := func(t *testing.T) (*Client, *Toolkit, RunResult) {
		var c counter
		tk := mustToolkit(t, RequireApproval(c.tool("t")))
		client := script().client(ClientOptions{})
		res, err := client.Run(context.Background(), "go", tk)
		if err != nil || res.Status != StatusPending {
			t.Fatalf("setup: %v %s", err, res.Status)
		}
		return client, tk, res
	}
	calls := []struct {
		name string
		run  func(t *testing.T) (RunResult, error)
	}{
		{"Run", func(t *testing.T) (RunResult, error) {
			var c counter
			return script().client(ClientOptions{}).Run(nilCtx, "go", mustToolkit(t, c.tool("t")))
		}},
		{"RunWithHistory", func(t *testing.T) (RunResult, error) {
			var c counter
			return script().client(ClientOptions{}).RunWithHistory(nilCtx, "go", mustToolkit(t, c.tool("t")), nil)
		}},
		{"Run with WaitFor", func(t *testing.T) (RunResult, error) {
			var c counter
			return script().client(ClientOptions{WaitFor: approve}).Run(nilCtx, "go", mustToolkit(t, RequireApproval(c.tool("t"))))
		}},
		{"RunWithAnswer", func(t *testing.T) (RunResult, error) {
			client, tk, res := halted(t)
			return client.RunWithAnswer(nilCtx, tk, res.Messages, *res.Pending, Answer{ID: res.Pending.ID, Ok: true})
		}},
		{"Stream", func(t *testing.T) (RunResult, error) {
			var c counter
			return streamResult(script().client(ClientOptions{}).Stream(nilCtx, "go", mustToolkit(t, c.tool("t"))))
		}},
		{"StreamWithHistory", func(t *testing.T) (RunResult, error) {
			var c counter
			return streamResult(script().client(ClientOptions{}).StreamWithHistory(nilCtx, "go", mustToolkit(t, c.tool("t")), nil))
		}},
		{"StreamWithAnswer", func(t *testing.T) (RunResult, error) {
			client, tk, res := halted(t)
			return streamResult(client.StreamWithAnswer(nilCtx, tk, res.Messages, *res.Pending, Answer{ID: res.Pending.ID, Ok: true}))
		}},
		{"Ask", func(t *testing.T) (RunResult, error) {
			var c counter
			return script().client(ClientOptions{}).Ask(nilCtx, "go", mustToolkit(t, c.tool("t")), "conv1")
		}},
		{"AskWithAnswer", func(t *testing.T) (RunResult, error) {
			var c counter
			tk := mustToolkit(t, RequireApproval(c.tool("t")))
			client := script().client(ClientOptions{})
			res, err := client.Ask(context.Background(), "go", tk, "conv1")
			if err != nil || res.Pending == nil {
				t.Fatalf("setup: %v", err)
			}
			return client.AskWithAnswer(nilCtx, tk, "conv1", *res.Pending, Answer{ID: res.Pending.ID, Ok: true})
		}},
		{"Conversation.Ask", func(t *testing.T) (RunResult, error) {
			var c counter
			return script().client(ClientOptions{}).Conversation(mustToolkit(t, c.tool("t"))).Ask(nilCtx, "go")
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			res, err := c.run(t)
			if err != nil || res.Status != StatusDone || res.Text != "done" {
				t.Fatalf("%v, status %q, text %q", err, res.Status, res.Text)
			}
		})
	}

	t.Run("CreateToolkit, Execute and MCP connect", func(t *testing.T) {
		f := &fakeMCP{Tools: []string{`{"name":"echo","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`}}
		tk, err := CreateToolkit(nilCtx, Options{Builtins: false, MCP: f.Config(), Transport: f})
		if err != nil || tk.MCPServers()["fake"].Status != MCPConnected {
			t.Fatalf("%v %+v", err, tk.MCPServers())
		}
		defer tk.Close()
		if res, err := tk.Execute(nilCtx, "fake_echo", nil); err != nil || res.IsError || res.Output != "ok" {
			t.Fatalf("Execute: %+v %v", res, err)
		}
	})
	t.Run("Translate", func(t *testing.T) {
		m := newScripted(t, StyleOpenAI, turn{Text: "hi"})
		res, err := m.client(ClientOptions{}).Translate(nilCtx, TranslateRequest{Messages: []any{json.RawMessage(`{"role":"user","content":"x"}`)}})
		if err != nil || res.Text != "hi" {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("TransportFunc", func(t *testing.T) {
		var got context.Context
		tr := TransportFunc(func(ctx context.Context, _ *HTTPRequest) (*HTTPResponse, error) { got = ctx; return nil, nil })
		tr.Do(nilCtx, &HTTPRequest{})
		if got == nil {
			t.Fatal("the function got a nil context")
		}
	})
}
