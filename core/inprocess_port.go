package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The Go port's in-process client: a model written as a plain Go function
// over decoded values. CreateGenerateClient is core's own (typed request,
// context-aware); both run the same loop.

// InProcessToolCall is one tool call an in-process model asks for.
// Arguments may be any value (it is encoded), or JSON text as a string,
// json.RawMessage or []byte (sent as it is); nil means {}.
type InProcessToolCall struct {
	ID        string
	Name      string
	Arguments any
}

// InProcessRequest is what Generate receives for one model call.
type InProcessRequest struct {
	Messages []any
	Tools    []any
	Model    string
	// Body is the whole request body the client assembled, decoded.
	Body map[string]any
}

// InProcessUsage is a model call's token counts (optional).
type InProcessUsage struct {
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int
}

// InProcessResponse is one assistant message: Content, or ToolCalls.
type InProcessResponse struct {
	Content   string
	ToolCalls []InProcessToolCall
	Usage     *InProcessUsage
}

// InProcessOptions are the client options that do not describe a wire
// (no BaseURL, APIKey or Style), plus Generate.
type InProcessOptions struct {
	Model    string
	Generate func(InProcessRequest) (InProcessResponse, error)
	// OnError classifies a failed Generate as a failed HTTP request would
	// be; unset, every failure is final (nothing is retried).
	OnError       func(ErrorInfo) Tier
	SystemPrompt  string
	MaxTurns      int
	Hooks         *Hooks
	TimeoutMs     int
	Store         ConversationStore
	OnMetric      func(MetricEvent)
	WaitFor       func(Request) (Answer, error)
	RequestParams map[string]any
	BodyTransform func(map[string]any) map[string]any
	Headers       map[string]string
}

// errNoGenerate is every Run's error when InProcessOptions has no Generate
// (the Go port panics; core must not, under js/wasm).
var errNoGenerate = errors.New("core: CreateInProcessClient needs a Generate function")

// CreateInProcessClient builds a client whose model is opts.Generate, run
// by the same loop as CreateClient. A streamed run gets the whole reply as
// one text delta (the Go port refuses to stream instead).
func CreateInProcessClient(opts InProcessOptions) *Client {
	gen := opts.Generate
	transport := TransportFunc(func(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
		if gen == nil {
			return nil, errNoGenerate
		}
		body, err := decodeObject(req.Body)
		if err != nil {
			return nil, fmt.Errorf("decode request: %w", err)
		}
		in := InProcessRequest{Body: body}
		in.Messages, _ = body["messages"].([]any)
		in.Tools, _ = body["tools"].([]any)
		in.Model, _ = body["model"].(string)
		out, err := gen(in)
		if err != nil {
			return nil, err
		}
		return &HTTPResponse{Status: 200, Header: map[string]string{}, Body: io.NopCloser(strings.NewReader(generateReply(in.Model, out.generateResponse())))}, nil
	})
	c := CreateClient(ClientOptions{
		BaseURL: inProcessURL, Style: StyleOpenAI, Model: opts.Model, Transport: transport,
		OnError: opts.OnError, Retries: retriesFor(opts.OnError), SystemPrompt: opts.SystemPrompt,
		MaxTurns: opts.MaxTurns, Hooks: opts.Hooks, TimeoutMs: opts.TimeoutMs, Store: opts.Store,
		OnMetric: opts.OnMetric, WaitFor: opts.WaitFor, RequestParams: opts.RequestParams,
		BodyTransform: opts.BodyTransform, Headers: opts.Headers,
	})
	if gen == nil && c.err == nil {
		c.err = errNoGenerate
	}
	return c
}

// retriesFor makes failures final unless the host classifies them.
func retriesFor(onError func(ErrorInfo) Tier) int {
	if onError == nil {
		return -1
	}
	return 0 // the default
}

// generateResponse converts the port's reply to core's.
func (r InProcessResponse) generateResponse() GenerateResponse {
	out := GenerateResponse{Text: r.Content}
	for _, c := range r.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, ToolRequest{ID: c.ID, Name: c.Name, Arguments: encodeArguments(c.Arguments)})
	}
	if r.Usage != nil {
		out.Usage = Usage{PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens, TotalTokens: r.Usage.TotalTokens}
	}
	return out
}

// encodeArguments passes JSON text through and encodes anything else.
func encodeArguments(v any) string {
	switch a := v.(type) {
	case nil:
		return "{}"
	case string:
		return a
	case json.RawMessage:
		return string(a)
	case []byte:
		return string(a)
	}
	b, err := marshalJSON(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// transformBody runs a map-shaped BodyTransform over an encoded body.
func transformBody(body []byte, fn func(map[string]any) map[string]any) ([]byte, error) {
	m, err := decodeObject(body)
	if err != nil {
		return nil, err
	}
	out := fn(m)
	if out == nil {
		return body, nil
	}
	return marshalJSON(out)
}
