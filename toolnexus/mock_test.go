package toolnexus

import (
	"context"
	"testing"

	"github.com/toolnexus/wasm/internal/testmodel"
)

// The scripted provider model lives in internal/testmodel, shared with
// core's tests; these are its names here and what needs this package's types.
type (
	turn     = testmodel.Turn
	recorded = testmodel.Recorded
)

// scriptedModel is a testmodel.Scripted that builds this package's Client.
type scriptedModel struct{ *testmodel.Scripted }

func newScripted(t *testing.T, style Style, turns ...turn) *scriptedModel {
	return &scriptedModel{testmodel.New(t, style, turns...)}
}

func (m *scriptedModel) client(opts ClientOptions) *Client {
	if opts.Style == "" {
		opts.Style = m.Style()
	}
	if opts.BaseURL == "" {
		opts.BaseURL = "https://model.test/v1"
	}
	if opts.Model == "" {
		opts.Model = "test-model"
	}
	opts.Transport = m
	return CreateClient(opts)
}

func (m *scriptedModel) sent() []recorded           { return m.Sent() }
func (m *scriptedModel) toolResults(n int) []string { return m.ToolResults(n) }

func reply(status int, body string) *HTTPResponse { return testmodel.Reply(status, body) }
func openAIReply(tr turn) string                  { return testmodel.OpenAIReply(tr) }
func assertBalanced(t *testing.T, msgs []any)     { t.Helper(); testmodel.AssertBalanced(t, msgs) }

func call(id, name, args string) ToolRequest { return ToolRequest{ID: id, Name: name, Arguments: args} }

// counter is a tool that counts its runs and echoes its arguments.
type counter struct{ testmodel.Counter }

func (c *counter) tool(name string) Tool {
	return NativeTool(name, "counts its runs", testmodel.CounterSchema(), c.Run(name))
}

func (c *counter) count() int { return c.Count() }

func mustToolkit(t *testing.T, tools ...Tool) *Toolkit {
	t.Helper()
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, ExtraTools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}
