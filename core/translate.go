package core

import (
	"context"
	"encoding/json"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/textx"
)

// TranslateRequest is one chat-completions request, OpenAI-shaped, to send
// to the client's provider in its own wire format.
type TranslateRequest struct {
	// Messages is the OpenAI "messages" array. Each element is any value
	// that encodes to a JSON object; a json.RawMessage (or []byte) is sent
	// as it is, without decoding.
	Messages []any
	// Tools is the OpenAI "tools" array, elements as for Messages. They are
	// declarations only: nothing runs.
	Tools []any
	// Toolkit declares a toolkit's tools too (before Tools), without
	// running any of them.
	Toolkit *Toolkit
	// ToolChoice is OpenAI's "tool_choice", sent as it is (mapped to
	// Anthropic's shape for an Anthropic client); nil leaves it out.
	ToolChoice any
	// System replaces the system prompt. Empty: the messages' own system
	// messages, or else the client's SystemPrompt.
	System string
	// MaxTokens replaces the client's MaxTokens for this call (0: keep it).
	MaxTokens int
	// Model replaces the client's model for this call (core's addition).
	Model string
}

// TranslateResult is the provider's reply, OpenAI-shaped.
type TranslateResult struct {
	Text         string               `json:"text"`
	ToolCalls    []TranslatedToolCall `json:"toolCalls"`
	FinishReason string               `json:"finishReason"`
	Usage        Usage                `json:"usage"`
	Model        string               `json:"model"`
	// Raw is the provider's reply, for a field this struct does not model;
	// nil for a streamed reply.
	Raw json.RawMessage `json:"-"`
}

// TranslatedToolCall is a tool call with its arguments as JSON text.
type TranslatedToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// String renders the call for logs: name(arguments, cut at 64 bytes) id=….
func (c TranslatedToolCall) String() string {
	return c.Name + "(" + textx.Truncate(c.Arguments, 64) + ") id=" + c.ID
}

// ToolCallsJSON returns the tool calls as an OpenAI assistant message's
// "tool_calls" array (an empty list when there are none).
func (r TranslateResult) ToolCallsJSON() []any {
	out := make([]any, 0, len(r.ToolCalls))
	for _, c := range r.ToolCalls {
		out = append(out, map[string]any{"id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Arguments}})
	}
	return out
}

// Translate makes one provider call — no loop, no tool execution. OpenAI
// messages and tools go in verbatim; for an Anthropic client they are
// converted (system hoisted, assistant tool calls as tool_use blocks,
// consecutive tool results merged into one user turn).
func (c *Client) Translate(ctx context.Context, req TranslateRequest) (TranslateResult, error) {
	return c.translate(ctx, req, nil)
}

// TranslateStream is Translate with the reply streamed: onDelta sees each
// text delta (Type "text") and each tool-call delta (Type
// "tool_call_delta": Index, and ID and Name on a call's first delta, Args
// the next piece of its JSON arguments) as the provider sends them, before
// TranslateStream returns the whole reply. A provider that answers a
// stream request in one piece yields its text as one delta and its tool
// calls as no deltas: only the returned reply has them.
func (c *Client) TranslateStream(ctx context.Context, req TranslateRequest, onDelta func(StreamEvent)) (TranslateResult, error) {
	if onDelta == nil {
		onDelta = func(StreamEvent) {}
	}
	return c.translate(ctx, req, onDelta)
}

func (c *Client) translate(ctx context.Context, req TranslateRequest, onDelta func(StreamEvent)) (TranslateResult, error) {
	ctx = orBackground(ctx)
	if c.err != nil {
		return TranslateResult{}, c.err
	}
	if len(req.Messages) == 0 {
		return TranslateResult{}, fmt.Errorf("core: translate: no messages")
	}
	msgs, err := encodeList(req.Messages, "messages")
	if err != nil {
		return TranslateResult{}, err
	}
	tools, err := encodeList(req.Tools, "tools")
	if err != nil {
		return TranslateResult{}, err
	}
	var choice []byte // `,"tool_choice":…` when asked for
	if req.Toolkit != nil || req.ToolChoice != nil {
		if tools, choice, err = translateExtras(c.wire, req, tools); err != nil {
			return TranslateResult{}, err
		}
	}
	opts := c.opts
	if req.Model != "" {
		opts.Model = req.Model
	}
	if req.MaxTokens > 0 {
		opts.MaxTokens = req.MaxTokens
	}
	stream := onDelta != nil
	body, err := wire.TranslateBody(c.wire, wireParams(&opts), msgs, tools, req.System, stream)
	if err != nil {
		return TranslateResult{}, err
	}
	body = withParams(body, choice)
	r := &run{c: &Client{opts: opts, wire: c.wire, params: c.params, metrics: c.metrics}, stream: onDelta, callDeltas: stream}
	r.keepReply = !stream
	resp, err := r.request(ctx, withParams(body, c.params))
	if err != nil {
		return TranslateResult{}, err
	}
	out := TranslateResult{Text: resp.Text, FinishReason: resp.FinishReason, Usage: resp.Usage, Model: resp.Model, ToolCalls: []TranslatedToolCall{}}
	if out.Model == "" {
		out.Model = opts.Model
	}
	out.Raw = r.reply
	for _, tc := range resp.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, TranslatedToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
	}
	return out, nil
}
