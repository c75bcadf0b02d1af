package core

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Issue 15: JSON nested ~9,000+ levels overflowed the JS engine's stack in
// gjson's recursive validation and ended the host. Under js/wasm these
// tests run with go_js_wasm_exec's 8 MiB stack, where 100,000 levels
// overflowed before the limit: they fail by crashing without it.

// deepDepths are the depths the issue tried, beside one just past the limit.
var deepDepths = []int{MaxJSONDepth + 1, 20_000, 100_000}

// deepJSON nests objects and arrays depth levels deep.
func deepJSON(depth int) string {
	var b strings.Builder
	b.Grow(depth * 7)
	for i := 0; i < depth; i++ {
		if i%2 == 0 {
			b.WriteString(`{"a":`)
		} else {
			b.WriteByte('[')
		}
	}
	b.WriteString("1")
	for i := depth - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	return b.String()
}

func TestDeepModelReplyIsAnErrorAndKeepsTheTranscript(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		for _, depth := range deepDepths {
			for _, stream := range []bool{false, true} {
				deep := `{"model":"m","choices":[{"message":{"role":"assistant","content":"x","extra":` + deepJSON(depth) + `}}],"content":[],"x":` + deepJSON(depth) + `}`
				if stream {
					if style == StyleAnthropic {
						deep = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":" + deepJSON(depth) + "}\n\n"
					} else {
						deep = "data: {\"choices\":[{\"delta\":" + deepJSON(depth) + "}]}\n\n"
					}
				}
				var c counter
				m := newScripted(t, style, turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}}, turn{Raw: deep})
				client := m.client(ClientOptions{Retries: -1})
				tk := mustToolkit(t, c.tool("t"))
				var res RunResult
				var err error
				if stream {
					res, err = drainStream(t, client, tk)
				} else {
					res, err = client.Run(context.Background(), "go", tk)
				}
				// A provider's error text is redacted, so these errors are
				// text: they say what was refused and why.
				if err == nil || !strings.Contains(err.Error(), "refused: JSON nested more than 1000 levels deep") {
					t.Fatalf("%s depth %d stream %v: error %v", style, depth, stream, err)
				}
				if c.count() != 1 || len(res.ToolCalls) != 1 || res.ToolCalls[0].Output != "t ran for order 1" {
					t.Fatalf("%s depth %d: the completed tool turn was lost: %+v", style, depth, res.ToolCalls)
				}
				assertBalanced(t, res.Messages)
			}
		}
	}
}

func drainStream(t *testing.T, c *Client, tk *Toolkit) (RunResult, error) {
	t.Helper()
	res, err := streamResult(c.Stream(context.Background(), "go", tk))
	if errors.Is(err, errNoStreamResult) {
		t.Fatal(err)
	}
	return res, err
}

func TestDeepToolArgumentsAreAnErrorResult(t *testing.T) {
	for _, depth := range deepDepths {
		var c counter
		m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", deepJSON(depth))}}, turn{Text: "ok"})
		res, err := m.client(ClientOptions{}).Run(context.Background(), "go", mustToolkit(t, c.tool("t")))
		if err != nil || res.Status != StatusDone {
			t.Fatalf("depth %d: %v %s", depth, err, res.Status)
		}
		if c.count() != 0 || !res.ToolCalls[0].IsError {
			t.Fatalf("depth %d: the tool ran, or no error result: %+v", depth, res.ToolCalls)
		}
		if got := m.toolResults(2); len(got) != 1 || !strings.Contains(got[0], "nested more than 1000 levels") {
			t.Fatalf("depth %d: the model saw %q", depth, got)
		}
		if !gjson.ValidBytes(res.ToolCalls[0].RawArgs) || res.ToolCalls[0].Args != nil || gjson.ParseBytes(res.ToolCalls[0].RawArgs).Type != gjson.String {
			t.Fatalf("depth %d: the record's args must be the text as a JSON string", depth)
		}
	}
}

func TestDeepJSONFromTheHostIsRefused(t *testing.T) {
	for _, depth := range deepDepths {
		deep := deepJSON(depth)
		m := newScripted(t, StyleOpenAI)
		client := m.client(ClientOptions{})
		tk := mustToolkit(t)
		// A history message may wrap what was accepted at the limit, so
		// it has some slack (jsonx.WrapSlack).
		history := []any{json.RawMessage(`{"role":"user","content":"x","extra":` + deepJSON(depth+jsonx.WrapSlack) + `}`)}
		if _, err := client.RunWithHistory(context.Background(), "go", tk, history); !errors.Is(err, ErrJSONTooDeep) {
			t.Errorf("depth %d: history: %v", depth, err)
		}
		if _, err := client.RunWithAnswer(context.Background(), tk, history, Request{ID: "r"}, Answer{ID: "r"}); !errors.Is(err, ErrJSONTooDeep) {
			t.Errorf("depth %d: resume history: %v", depth, err)
		}
		var a Answer
		if err := a.UnmarshalJSON([]byte(`{"id":"r","ok":true,"data":` + deep + `}`)); !errors.Is(err, ErrJSONTooDeep) {
			t.Errorf("depth %d: answer: %v", depth, err)
		}
		var r Request
		if err := r.UnmarshalJSON([]byte(`{"id":"r","data":` + deep + `}`)); !errors.Is(err, ErrJSONTooDeep) {
			t.Errorf("depth %d: request: %v", depth, err)
		}
		if _, err := ParseMCPConfig([]byte(`{"mcpServers":{"x":{"url":"https://x","extra":` + deep + `}}}`)); !errors.Is(err, ErrJSONTooDeep) {
			t.Errorf("depth %d: mcp config: %v", depth, err)
		}
		// Translate checks the depth of every message and tool it is given.
		anthropic := newScripted(t, StyleAnthropic).client(ClientOptions{})
		tr := TranslateRequest{Messages: []any{json.RawMessage(`{"role":"user","content":"x"}`)},
			Tools: []any{json.RawMessage(`{"type":"function","function":{"name":"t","parameters":{"type":"object","x":` + deep + `}}}`)}}
		if _, err := anthropic.Translate(context.Background(), tr); err == nil || !strings.Contains(err.Error(), "JSON nested more than") {
			t.Errorf("depth %d: translate: %v", depth, err)
		}
		if len(m.sent()) != 0 {
			t.Fatalf("depth %d: the model was called", depth)
		}
	}
	// At the limit a message still passes, also when a transcript wraps it.
	ok := []any{json.RawMessage(`{"role":"user","content":"x","extra":` + deepJSON(MaxJSONDepth) + `}`)}
	m := newScripted(t, StyleOpenAI, turn{Text: "fine"})
	if res, err := m.client(ClientOptions{}).RunWithHistory(context.Background(), "go", mustToolkit(t), ok); err != nil || res.Text != "fine" {
		t.Fatalf("a history message at the limit: %v", err)
	}
}

func TestDeepMCPMessagesFailTheServerOrTheCall(t *testing.T) {
	for _, depth := range deepDepths {
		deep := deepJSON(depth)
		// tools/list: the server fails, the toolkit still builds.
		f := &fakeMCP{ListReply: `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"x","inputSchema":` + deep + `}]}}`}
		tk := fakeToolkit(t, f, nil)
		st := tk.MCPServers()["fake"]
		if st.Status != MCPFailed || !strings.Contains(st.Reason, "nested more than 1000 levels") {
			t.Fatalf("depth %d: tools/list: %+v", depth, st)
		}
		// tools/call: an error result, and the next call works.
		deepCall := true
		f = &fakeMCP{Tools: []string{`{"name":"echo","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`},
			Call: func(_ context.Context, _ string, _ gjson.Result) (string, bool) {
				if deepCall {
					return `{"content":[{"type":"text","text":"x"}],"structuredContent":` + deep + `}`, false
				}
				return `{"content":[{"type":"text","text":"fine"}]}`, false
			}}
		tk = fakeToolkit(t, f, nil)
		res, err := tk.Execute(context.Background(), "fake_echo", nil)
		if err != nil || !res.IsError || !strings.Contains(res.Output, "nested more than 1000 levels") {
			t.Fatalf("depth %d: tools/call: %+v %v", depth, res, err)
		}
		deepCall = false
		if res, _ := tk.Execute(context.Background(), "fake_echo", nil); res.IsError || res.Output != "fine" {
			t.Fatalf("depth %d: the call after: %+v", depth, res)
		}
	}
}
