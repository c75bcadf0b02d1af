// Package testmodel is the scripted provider model that core's and
// toolnexus's tests share: a Transport answering each request with the next
// scripted turn, in either wire style, and recording what it was sent. It is
// test support only; no main links it.
package testmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Scripted is an in-memory provider: a Transport that answers each
// request with the next scripted turn and records what it was sent. It needs
// no sockets, so the same tests run natively and under GOOS=js.
type Scripted struct {
	t     *testing.T
	style wire.Style
	turns []Turn

	mu       sync.Mutex
	requests []Recorded
}

// Turn is one scripted reply: text and/or tool calls, or a raw HTTP reply.
type Turn struct {
	Text   string
	Calls  []wire.ToolCall
	Status int    // non-zero: reply with this status and Raw
	Raw    string // the body to send verbatim
	Header map[string]string
	Err    error // the transport fails with this
	Split  int   // >0: the body arrives in pieces of this many bytes
}

// Recorded is one request the model received.
type Recorded struct {
	URL    string
	Header map[string]string
	Body   gjson.Result
}

// New returns a model that answers in style with turns, in order.
func New(t *testing.T, style wire.Style, turns ...Turn) *Scripted {
	return &Scripted{t: t, style: style, turns: turns}
}

// Style is the wire style the model answers in.
func (m *Scripted) Style() wire.Style { return m.style }

// Do answers req with the next scripted turn.
func (m *Scripted) Do(ctx context.Context, req *tool.HTTPRequest) (*tool.HTTPResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !gjson.ValidBytes(req.Body) {
		m.t.Errorf("request body is not valid JSON: %s", req.Body)
	}
	m.requests = append(m.requests, Recorded{URL: req.URL, Header: req.Header, Body: gjson.ParseBytes(append([]byte(nil), req.Body...))})
	n := len(m.requests)
	if n > len(m.turns) {
		m.t.Errorf("model called %d times; the script has %d turns", n, len(m.turns))
		return Reply(500, `{"error":{"message":"script exhausted"}}`), nil
	}
	tr := m.turns[n-1]
	if tr.Err != nil {
		return nil, tr.Err
	}
	if tr.Status != 0 || tr.Raw != "" {
		status := tr.Status
		if status == 0 {
			status = 200
		}
		resp := Reply(status, tr.Raw)
		for k, v := range tr.Header {
			resp.Header[k] = v
		}
		if tr.Split > 0 {
			resp.Body = io.NopCloser(&Pieces{Data: []byte(tr.Raw), N: tr.Split})
		}
		return resp, nil
	}
	streaming := gjson.GetBytes(req.Body, "stream").Bool()
	switch {
	case m.style == wire.StyleAnthropic && streaming:
		return Reply(200, AnthropicSSE(tr)), nil
	case m.style == wire.StyleAnthropic:
		return Reply(200, AnthropicReply(tr)), nil
	case streaming:
		return Reply(200, OpenAISSE(tr)), nil
	}
	return Reply(200, OpenAIReply(tr)), nil
}

// OpenAISSE streams a scripted turn: the text in two deltas, each call in
// two argument pieces, then usage and [DONE].
func OpenAISSE(tr Turn) string {
	var b strings.Builder
	half := len(tr.Text) / 2
	for _, part := range []string{tr.Text[:half], tr.Text[half:]} {
		if part != "" {
			fmt.Fprintf(&b, "data: {\"choices\":[{\"delta\":{\"content\":%q}}]}\n\n", part)
		}
	}
	for i, c := range tr.Calls {
		cut := len(c.Arguments) / 2
		fmt.Fprintf(&b, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":%d,\"id\":%q,\"function\":{\"name\":%q,\"arguments\":%q}}]}}]}\n\n", i, c.ID, c.Name, c.Arguments[:cut])
		fmt.Fprintf(&b, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":%d,\"function\":{\"arguments\":%q}}]}}]}\n\n", i, c.Arguments[cut:])
	}
	b.WriteString("data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
	b.WriteString("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}\n\ndata: [DONE]\n\n")
	return b.String()
}

// AnthropicSSE streams a scripted turn as messages-API events.
func AnthropicSSE(tr Turn) string {
	var b strings.Builder
	ev := func(name, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data) }
	ev("message_start", `{"type":"message_start","message":{"model":"served-model","usage":{"input_tokens":3}}}`)
	i := 0
	if tr.Text != "" {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i))
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%q}}`, i, tr.Text))
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
		i++
	}
	for _, c := range tr.Calls {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, i, c.ID, c.Name))
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%q}}`, i, c.Arguments))
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
		i++
	}
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`)
	ev("message_stop", `{"type":"message_stop"}`)
	return b.String()
}

// Reply is an HTTP reply with body, typed as JSON or as an event stream.
func Reply(status int, body string) *tool.HTTPResponse {
	ct := "application/json"
	if strings.HasPrefix(body, "data:") || strings.HasPrefix(body, "event:") || strings.HasPrefix(body, ":") {
		ct = "text/event-stream"
	}
	return &tool.HTTPResponse{Status: status, Header: map[string]string{"content-type": ct}, Body: io.NopCloser(strings.NewReader(body))}
}

// OpenAIReply is a scripted turn as one chat-completions JSON reply.
func OpenAIReply(tr Turn) string {
	var calls []string
	for _, c := range tr.Calls {
		calls = append(calls, fmt.Sprintf(`{"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}`, Quote(c.ID), Quote(c.Name), Quote(c.Arguments)))
	}
	content := "null"
	if tr.Text != "" {
		content = Quote(tr.Text)
	}
	tc := ""
	if len(calls) > 0 {
		tc = `,"tool_calls":[` + strings.Join(calls, ",") + `]`
	}
	return `{"model":"served-model","choices":[{"message":{"role":"assistant","content":` + content + tc + `},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
}

// Quote encodes s as a JSON string (Go's %q is not JSON for bytes such as \xff).
func Quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// AnthropicReply is a scripted turn as one messages-API JSON reply.
func AnthropicReply(tr Turn) string {
	var blocks []string
	if tr.Text != "" {
		blocks = append(blocks, fmt.Sprintf(`{"type":"text","text":%q}`, tr.Text))
	}
	for _, c := range tr.Calls {
		blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, c.ID, c.Name, c.Arguments))
	}
	return `{"model":"served-model","type":"message","role":"assistant","content":[` + strings.Join(blocks, ",") + `],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":2}}`
}

// Sent returns the request bodies the model received.
func (m *Scripted) Sent() []Recorded {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Recorded(nil), m.requests...)
}

// ToolResults returns the contents of the tool results the model saw
// in request n (1-based), in either style.
func (m *Scripted) ToolResults(n int) []string {
	req := m.Sent()[n-1]
	var out []string
	for _, msg := range req.Body.Get("messages").Array() {
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

// AssertBalanced checks that every tool call in the transcript has exactly
// one result before the next assistant message.
func AssertBalanced(t *testing.T, msgs []any) {
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
		msg := gjson.ParseBytes(MessageBytes(t, m))
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

// MessageBytes is one transcript message as JSON, whether Messages holds
// maps (the default) or json.RawMessage (ClientOptions.RawMessages).
func MessageBytes(t *testing.T, m any) []byte {
	t.Helper()
	if raw, ok := m.(json.RawMessage); ok {
		return raw
	}
	b, err := jsonx.Marshal(m)
	if err != nil {
		t.Fatalf("message %v: %v", m, err)
	}
	return b
}

// Pieces hands out its Data N bytes per Read, to split events and
// multi-byte characters at awkward places.
type Pieces struct {
	Data []byte
	N    int
}

// Read hands out the next piece.
func (p *Pieces) Read(b []byte) (int, error) {
	if len(p.Data) == 0 {
		return 0, io.EOF
	}
	k := min(p.N, len(b), len(p.Data))
	copy(b, p.Data[:k])
	p.Data = p.Data[k:]
	return k, nil
}

// Counter backs a tool that counts its runs and echoes its arguments.
type Counter struct {
	mu   sync.Mutex
	runs int
	Args []map[string]any // the arguments of each run
}

// CounterSchema is the counting tool's parameters: a required "order".
func CounterSchema() map[string]any {
	return map[string]any{
		"type":       "object",
		"properties": map[string]any{"order": map[string]any{"type": "string"}},
		"required":   []any{"order"},
	}
}

// Run is the body of the counting tool called name.
func (c *Counter) Run(name string) func(ctx context.Context, args map[string]any) (string, error) {
	return func(ctx context.Context, args map[string]any) (string, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.runs++
		c.Args = append(c.Args, args)
		return fmt.Sprintf("%s ran for order %v", name, args["order"]), nil
	}
}

// Count is how many times the tool ran.
func (c *Counter) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs
}
