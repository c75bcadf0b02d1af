package toolnexus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/jsonx"
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
	Store         core.ConversationStore
	OnMetric      func(core.MetricEvent)
	WaitFor       func(core.Request) (core.Answer, error)
	RequestParams map[string]any
	BodyTransform func(map[string]any) map[string]any
	Headers       map[string]string
}

// errNoGenerate is every Run's error when InProcessOptions has no Generate
// (the Go port panics; a sandbox must not).
var errNoGenerate = errors.New("core: CreateInProcessClient needs a Generate function")

// errNoStreaming is a streamed run's error: Generate returns whole
// replies, and a stream of one delta would fake one.
var errNoStreaming = errors.New("toolnexus: the in-process client does not support streaming: use Run")

// CreateInProcessClient builds a client whose model is opts.Generate, run
// by the same loop as CreateClient. Streaming is refused with an error
// (errNoStreaming), as in the port.
func CreateInProcessClient(opts InProcessOptions) *Client {
	gen := opts.Generate
	transport := core.TransportFunc(func(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
		if gen == nil {
			return nil, errNoGenerate
		}
		body, err := jsonx.DecodeObject(req.Body)
		if err != nil {
			return nil, fmt.Errorf("decode request: %w", err)
		}
		if stream, _ := body["stream"].(bool); stream {
			return nil, errNoStreaming
		}
		in := InProcessRequest{Body: body}
		in.Messages, _ = body["messages"].([]any)
		in.Tools, _ = body["tools"].([]any)
		in.Model, _ = body["model"].(string)
		out, err := gen(in)
		if err != nil {
			return nil, err
		}
		return &core.HTTPResponse{Status: 200, Header: map[string]string{}, Body: io.NopCloser(strings.NewReader(inProcessReply(in.Model, out)))}, nil
	})
	retries := -1 // failures are final unless the host classifies them
	if opts.OnError != nil {
		retries = 0 // the default
	}
	o := coreClientOptions(ClientOptions{
		BaseURL: "inprocess://model", Style: core.StyleOpenAI, Model: opts.Model, Transport: transport,
		OnError: opts.OnError, Retries: retries, SystemPrompt: opts.SystemPrompt,
		MaxTurns: opts.MaxTurns, Hooks: opts.Hooks, TimeoutMs: opts.TimeoutMs, Store: opts.Store,
		OnMetric: opts.OnMetric, WaitFor: opts.WaitFor, RequestParams: opts.RequestParams,
		BodyTransform: opts.BodyTransform, Headers: opts.Headers,
	})
	if gen == nil {
		// Every run fails before its first model call.
		o.Hooks = &core.Hooks{BeforeLLM: func(context.Context, *core.LLMCall) (*core.LLMResponse, error) {
			return nil, errNoGenerate
		}}
	}
	return wrapClient(core.CreateClient(o), opts.SystemPrompt)
}

// inProcessReply is r as an OpenAI chat-completions reply.
func inProcessReply(model string, r InProcessResponse) string {
	var resp core.LLMResponse
	resp.Text = r.Content
	for i, c := range r.ToolCalls {
		id := c.ID
		if id == "" {
			id = "call_" + strconv.Itoa(i) + "_" + randomID()
		}
		args := encodeArguments(c.Arguments)
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		resp.ToolCalls = append(resp.ToolCalls, core.ToolRequest{ID: id, Name: c.Name, Arguments: args})
	}
	msg := wire.OpenAI{}.AssistantMessage(resp)
	var u InProcessUsage
	if r.Usage != nil {
		u = *r.Usage
	}
	if u.TotalTokens == 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	name, _ := jsonx.Marshal(model)
	return fmt.Sprintf(`{"model":%s,"choices":[{"message":%s,"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`,
		name, msg, u.PromptTokens, u.CompletionTokens, u.TotalTokens)
}

func randomID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
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
	b, err := jsonx.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}
