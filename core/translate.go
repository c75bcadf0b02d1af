package core

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// TranslateRequest is one chat-completions request, OpenAI-shaped, to send
// to the client's provider in its own wire format.
type TranslateRequest struct {
	Model    string            `json:"model,omitempty"` // default: the client's model
	Messages []json.RawMessage `json:"messages"`
	Tools    []json.RawMessage `json:"tools,omitempty"`
}

// TranslateResponse is the provider's reply, OpenAI-shaped.
type TranslateResponse struct {
	Text         string           `json:"text"`
	ToolCalls    []TranslatedCall `json:"toolCalls"`
	FinishReason string           `json:"finishReason"`
	Usage        Usage            `json:"usage"`
	Model        string           `json:"model"`
}

// TranslatedCall is a tool call with its arguments as JSON text.
type TranslatedCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Translate makes one provider call — no loop, no tool execution. OpenAI
// messages and tools go in verbatim; for an Anthropic client they are
// converted (system hoisted, assistant tool calls as tool_use blocks,
// consecutive tool results merged into one user turn).
func (c *Client) Translate(ctx context.Context, req TranslateRequest) (TranslateResponse, error) {
	return c.translate(ctx, req, nil)
}

// TranslateStream is Translate with the reply streamed: onDelta sees each
// text delta (Type "text") and each tool-call delta (Type
// "tool_call_delta": Index, and ID and Name on a call's first delta, Args
// the next piece of its JSON arguments) as the provider sends them, before
// TranslateStream returns the whole reply. A provider that answers a
// stream request in one piece yields its text as one delta and its tool
// calls as no deltas: only the returned reply has them.
func (c *Client) TranslateStream(ctx context.Context, req TranslateRequest, onDelta func(StreamEvent)) (TranslateResponse, error) {
	if onDelta == nil {
		onDelta = func(StreamEvent) {}
	}
	return c.translate(ctx, req, onDelta)
}

func (c *Client) translate(ctx context.Context, req TranslateRequest, onDelta func(StreamEvent)) (TranslateResponse, error) {
	ctx = orBackground(ctx)
	if c.err != nil {
		return TranslateResponse{}, c.err
	}
	if len(req.Messages) == 0 {
		return TranslateResponse{}, fmt.Errorf("core: translate: no messages")
	}
	opts := c.opts
	if req.Model != "" {
		opts.Model = req.Model
	}
	var body []byte
	var err error
	stream := onDelta != nil
	if _, anthropic := c.wire.(anthropicWire); anthropic {
		body, err = anthropicTranslateBody(&opts, req, stream)
	} else {
		body = openAIWire{}.body(&opts, joinRaw(req.Messages), joinList(req.Tools), stream)
	}
	if err != nil {
		return TranslateResponse{}, err
	}
	r := &run{c: &Client{opts: opts, wire: c.wire, params: c.params, metrics: c.metrics}, stream: onDelta, callDeltas: stream}
	resp, err := r.request(ctx, withParams(body, c.params))
	if err != nil {
		return TranslateResponse{}, err
	}
	out := TranslateResponse{Text: resp.Text, FinishReason: resp.FinishReason, Usage: resp.Usage, Model: firstNonEmpty(resp.Model, opts.Model), ToolCalls: []TranslatedCall{}}
	for _, tc := range resp.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, TranslatedCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
	}
	return out, nil
}

func joinRaw(msgs []json.RawMessage) []byte {
	var b []byte
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	return b
}

func joinList(items []json.RawMessage) []byte {
	if len(items) == 0 {
		return nil
	}
	return append(append([]byte{'['}, joinRaw(items)...), ']')
}

// anthropicTranslateBody converts an OpenAI-shaped request to the messages API.
func anthropicTranslateBody(o *ClientOptions, req TranslateRequest, stream bool) ([]byte, error) {
	var system []string
	var msgs []map[string]any
	// appendUser adds blocks to the trailing user message, or starts one:
	// the messages API wants tool results of one turn in one user message.
	appendUser := func(blocks ...any) {
		if n := len(msgs); n > 0 && msgs[n-1]["role"] == "user" {
			msgs[n-1]["content"] = append(msgs[n-1]["content"].([]any), blocks...)
			return
		}
		msgs = append(msgs, map[string]any{"role": "user", "content": append([]any{}, blocks...)})
	}
	for i, raw := range req.Messages {
		m := gjson.ParseBytes(raw)
		if !m.IsObject() {
			return nil, fmt.Errorf("core: translate: messages[%d] is not an object", i)
		}
		switch role := m.Get("role").String(); role {
		case "system", "developer":
			system = append(system, contentText(m.Get("content")))
		case "user":
			appendUser(map[string]any{"type": "text", "text": contentText(m.Get("content"))})
		case "tool":
			appendUser(map[string]any{"type": "tool_result", "tool_use_id": m.Get("tool_call_id").String(), "content": contentText(m.Get("content"))})
		case "assistant":
			var blocks []any
			if t := contentText(m.Get("content")); t != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": t})
			}
			for _, tc := range m.Get("tool_calls").Array() {
				var input any = map[string]any{}
				if args := tc.Get("function.arguments").String(); strings.TrimSpace(args) != "" {
					var err error
					if input, err = decodeJSON([]byte(args)); err != nil {
						return nil, fmt.Errorf("core: translate: messages[%d]: tool call arguments: %w", i, err)
					}
				}
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": tc.Get("id").String(), "name": tc.Get("function.name").String(), "input": input})
			}
			msgs = append(msgs, map[string]any{"role": "assistant", "content": blocks})
		default:
			return nil, fmt.Errorf("core: translate: messages[%d] has unknown role %q", i, role)
		}
	}
	var tools []any
	for _, raw := range req.Tools {
		t := gjson.ParseBytes(raw)
		fn := t.Get("function")
		var schema any = map[string]any{"type": "object", "properties": map[string]any{}}
		if p := fn.Get("parameters"); p.IsObject() {
			// Value recurses: the messages only pass through as bytes,
			// but a tool's parameters are decoded.
			if err := checkJSON([]byte(p.Raw), "translate: a tool's parameters"); err != nil {
				return nil, err
			}
			schema = p.Value()
		}
		tools = append(tools, map[string]any{"name": fn.Get("name").String(), "description": fn.Get("description").String(), "input_schema": schema})
	}
	o2 := *o
	o2.SystemPrompt = strings.Join(system, "\n\n")
	encMsgs := make([]json.RawMessage, 0, len(msgs))
	for _, m := range msgs {
		b, err := marshalJSON(m)
		if err != nil {
			return nil, fmt.Errorf("core: translate: %w", err)
		}
		encMsgs = append(encMsgs, b)
	}
	var toolBytes []byte
	if len(tools) > 0 {
		toolBytes, _ = marshalJSON(tools)
	}
	return anthropicWire{}.body(&o2, joinRaw(encMsgs), toolBytes, stream), nil
}

// contentText flattens an OpenAI content value (a string or a list of
// parts) to its text.
func contentText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.String()
	}
	var parts []string
	for _, p := range c.Array() {
		if p.Get("type").String() == "text" {
			parts = append(parts, p.Get("text").String())
		}
	}
	return strings.Join(parts, "\n")
}
