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
	calls  []ToolRequest
	status int    // non-zero: reply with this status and raw
	raw    string // the body to send verbatim
	header map[string]string
	err    error // the transport fails with this
	split  int   // >0: the body arrives in pieces of this many bytes
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
	if tr.err != nil {
		return nil, tr.err
	}
	if tr.status != 0 || tr.raw != "" {
		status := tr.status
		if status == 0 {
			status = 200
		}
		resp := reply(status, tr.raw)
		for k, v := range tr.header {
			resp.Header[k] = v
		}
		if tr.split > 0 {
			resp.Body = io.NopCloser(&pieces{data: []byte(tr.raw), n: tr.split})
		}
		return resp, nil
	}
	streaming := gjson.GetBytes(req.Body, "stream").Bool()
	switch {
	case m.style == StyleAnthropic && streaming:
		return reply(200, anthropicSSE(tr)), nil
	case m.style == StyleAnthropic:
		return reply(200, anthropicReply(tr)), nil
	case streaming:
		return reply(200, openAISSE(tr)), nil
	}
	return reply(200, openAIReply(tr)), nil
}

// openAISSE streams a scripted turn: the text in two deltas, each call in
// two argument pieces, then usage and [DONE].
func openAISSE(tr turn) string {
	var b strings.Builder
	half := len(tr.text) / 2
	for _, part := range []string{tr.text[:half], tr.text[half:]} {
		if part != "" {
			fmt.Fprintf(&b, "data: {\"choices\":[{\"delta\":{\"content\":%q}}]}\n\n", part)
		}
	}
	for i, c := range tr.calls {
		cut := len(c.Arguments) / 2
		fmt.Fprintf(&b, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":%d,\"id\":%q,\"function\":{\"name\":%q,\"arguments\":%q}}]}}]}\n\n", i, c.ID, c.Name, c.Arguments[:cut])
		fmt.Fprintf(&b, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":%d,\"function\":{\"arguments\":%q}}]}}]}\n\n", i, c.Arguments[cut:])
	}
	b.WriteString("data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
	b.WriteString("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}\n\ndata: [DONE]\n\n")
	return b.String()
}

// anthropicSSE streams a scripted turn as messages-API events.
func anthropicSSE(tr turn) string {
	var b strings.Builder
	ev := func(name, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data) }
	ev("message_start", `{"type":"message_start","message":{"model":"served-model","usage":{"input_tokens":3}}}`)
	i := 0
	if tr.text != "" {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i))
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%q}}`, i, tr.text))
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
		i++
	}
	for _, c := range tr.calls {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, i, c.ID, c.Name))
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%q}}`, i, c.Arguments))
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
		i++
	}
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`)
	ev("message_stop", `{"type":"message_stop"}`)
	return b.String()
}

func reply(status int, body string) *HTTPResponse {
	ct := "application/json"
	if strings.HasPrefix(body, "data:") || strings.HasPrefix(body, "event:") || strings.HasPrefix(body, ":") {
		ct = "text/event-stream"
	}
	return &HTTPResponse{Status: status, Header: map[string]string{"content-type": ct}, Body: io.NopCloser(strings.NewReader(body))}
}

func openAIReply(tr turn) string {
	var calls []string
	for _, c := range tr.calls {
		calls = append(calls, fmt.Sprintf(`{"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}`, quote(c.ID), quote(c.Name), quote(c.Arguments)))
	}
	content := "null"
	if tr.text != "" {
		content = quote(tr.text)
	}
	tc := ""
	if len(calls) > 0 {
		tc = `,"tool_calls":[` + strings.Join(calls, ",") + `]`
	}
	return `{"model":"served-model","choices":[{"message":{"role":"assistant","content":` + content + tc + `},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
}

// quote encodes s as a JSON string (Go's %q is not JSON for bytes such as \xff).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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

func call(id, name, args string) ToolRequest { return ToolRequest{ID: id, Name: name, Arguments: args} }

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
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, ExtraTools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// assertBalanced checks that every tool call in the transcript has exactly
// one result before the next assistant message.
func assertBalanced(t *testing.T, msgs []any) {
	t.Helper()
	assertBalancedBut(t, msgs)
}

// assertBalancedBut is assertBalanced for a halted transcript whose calls
// behind (suspended after the one the run halted on) have no result yet.
func assertBalancedBut(t *testing.T, msgs []any, behind ...string) {
	t.Helper()
	var open map[string]int
	check := func() {
		for id, n := range open {
			if want := 1 - min(1, countOf(behind, id)); n != want {
				t.Errorf("tool call %s has %d results, want %d", id, n, want)
			}
		}
	}
	for _, m := range msgs {
		msg := gjson.ParseBytes(messageBytes(t, m))
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

func countOf(list []string, s string) (n int) {
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// messageBytes is one transcript message as JSON, whether Messages holds
// maps (the default) or json.RawMessage (ClientOptions.RawMessages).
func messageBytes(t *testing.T, m any) []byte {
	t.Helper()
	if raw, ok := m.(json.RawMessage); ok {
		return raw
	}
	b, err := marshalJSON(m)
	if err != nil {
		t.Fatalf("message %v: %v", m, err)
	}
	return b
}

// pieces hands out its data n bytes per Read, to split events and
// multi-byte characters at awkward places.
type pieces struct {
	data []byte
	n    int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	k := min(p.n, len(b), len(p.data))
	copy(b, p.data[:k])
	p.data = p.data[k:]
	return k, nil
}
