package core

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// scriptedModel is an in-memory provider: a Transport that answers each
// request with the next scripted turn and records what it was sent. It needs
// no sockets, so the same tests run natively and under GOOS=js.
type scriptedModel struct {
	t     *testing.T
	style Style
	turns []turn

	mu       sync.Mutex
	requests []recorded
}

// turn is one scripted reply: text and/or tool calls, or a raw HTTP reply.
type turn struct {
	text   string
	calls  []ToolCall
	status int    // non-zero: reply with this status and raw
	raw    string // the body to send verbatim
}

type recorded struct {
	url    string
	header map[string]string
	body   gjson.Result
}

func newScripted(t *testing.T, style Style, turns ...turn) *scriptedModel {
	return &scriptedModel{t: t, style: style, turns: turns}
}

func (m *scriptedModel) client(opts ClientOptions) *Client {
	if opts.Style == "" {
		opts.Style = m.style
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

func (m *scriptedModel) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !gjson.ValidBytes(req.Body) {
		m.t.Errorf("request body is not valid JSON: %s", req.Body)
	}
	m.requests = append(m.requests, recorded{url: req.URL, header: req.Header, body: gjson.ParseBytes(append([]byte(nil), req.Body...))})
	n := len(m.requests)
	if n > len(m.turns) {
		m.t.Errorf("model called %d times; the script has %d turns", n, len(m.turns))
		return reply(500, `{"error":{"message":"script exhausted"}}`), nil
	}
	tr := m.turns[n-1]
	if tr.status != 0 || tr.raw != "" {
		status := tr.status
		if status == 0 {
			status = 200
		}
		return reply(status, tr.raw), nil
	}
	if m.style == StyleAnthropic {
		return reply(200, anthropicReply(tr)), nil
	}
	return reply(200, openAIReply(tr)), nil
}

func reply(status int, body string) *HTTPResponse {
	return &HTTPResponse{Status: status, Header: map[string]string{"content-type": "application/json"}, Body: io.NopCloser(strings.NewReader(body))}
}

func openAIReply(tr turn) string {
	var calls []string
	for _, c := range tr.calls {
		calls = append(calls, fmt.Sprintf(`{"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}`, c.ID, c.Name, c.Arguments))
	}
	content := "null"
	if tr.text != "" {
		content = fmt.Sprintf("%q", tr.text)
	}
	tc := ""
	if len(calls) > 0 {
		tc = `,"tool_calls":[` + strings.Join(calls, ",") + `]`
	}
	return `{"model":"served-model","choices":[{"message":{"role":"assistant","content":` + content + tc + `},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
}

func anthropicReply(tr turn) string {
	var blocks []string
	if tr.text != "" {
		blocks = append(blocks, fmt.Sprintf(`{"type":"text","text":%q}`, tr.text))
	}
	for _, c := range tr.calls {
		blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, c.ID, c.Name, c.Arguments))
	}
	return `{"model":"served-model","type":"message","role":"assistant","content":[` + strings.Join(blocks, ",") + `],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":2}}`
}

// sent returns the request bodies the model received.
func (m *scriptedModel) sent() []recorded {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]recorded(nil), m.requests...)
}

// lastToolResult returns the content of the last tool result the model saw
// in request n (1-based), in either style.
func (m *scriptedModel) toolResults(n int) []string {
	req := m.sent()[n-1]
	var out []string
	for _, msg := range req.body.Get("messages").Array() {
		if msg.Get("role").String() == "tool" {
			out = append(out, msg.Get("content").String())
		}
		for _, b := range msg.Get("content").Array() {
			if b.Get("type").String() == "tool_result" {
				out = append(out, b.Get("content").String())
			}
		}
	}
	return out
}

func call(id, name, args string) ToolCall { return ToolCall{ID: id, Name: name, Arguments: args} }

// counter is a tool that counts its runs and echoes its arguments.
type counter struct {
	mu   sync.Mutex
	runs int
	args []map[string]any
}

func (c *counter) tool(name string) Tool {
	return NativeTool(name, "counts its runs", JSONSchema{
		"type":       "object",
		"properties": map[string]any{"order": map[string]any{"type": "string"}},
		"required":   []any{"order"},
	}, func(ctx context.Context, args map[string]any) (string, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.runs++
		c.args = append(c.args, args)
		return fmt.Sprintf("%s ran for order %v", name, args["order"]), nil
	})
}

func (c *counter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs
}

func mustToolkit(t *testing.T, tools ...Tool) *Toolkit {
	t.Helper()
	tk, err := CreateToolkit(context.Background(), Options{ExtraTools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// assertBalanced checks that every tool call in the transcript has exactly
// one result before the next assistant message.
func assertBalanced(t *testing.T, msgs []any) {
	t.Helper()
	var open map[string]int
	check := func() {
		for id, n := range open {
			if n != 1 {
				t.Errorf("tool call %s has %d results, want 1", id, n)
			}
		}
	}
	for _, m := range msgs {
		msg := gjson.ParseBytes(m.(json.RawMessage))
		switch {
		case msg.Get("role").String() == "assistant":
			check()
			open = map[string]int{}
			for _, tc := range msg.Get("tool_calls").Array() {
				open[tc.Get("id").String()] = 0
			}
			for _, b := range msg.Get("content").Array() {
				if b.Get("type").String() == "tool_use" {
					open[b.Get("id").String()] = 0
				}
			}
		case msg.Get("role").String() == "tool":
			id := msg.Get("tool_call_id").String()
			if _, ok := open[id]; !ok {
				t.Errorf("result for unknown call %s", id)
			}
			open[id]++
		default:
			for _, b := range msg.Get("content").Array() {
				if b.Get("type").String() == "tool_result" {
					id := b.Get("tool_use_id").String()
					if _, ok := open[id]; !ok {
						t.Errorf("result for unknown call %s", id)
					}
					open[id]++
				}
			}
		}
	}
	check()
}
