package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// ClientOptions configures CreateClient: core's ClientOptions in the Go
// port's shapes (Hooks, OnError, BodyTransform over a decoded body,
// HTTPClient).
type ClientOptions struct {
	BaseURL        string
	Style          core.Style
	Model          string
	APIKey         string
	Headers        map[string]string
	SystemPrompt   string
	MaxTurns       int
	MaxTokens      int
	WaitFor        func(core.Request) (core.Answer, error)
	WaitForContext func(ctx context.Context, req core.Request) (core.Answer, error)
	// Hooks see messages, tools and arguments as Go values; any hook error
	// ends the run.
	Hooks            *Hooks
	LockApprovedArgs bool
	TimeoutMs        int
	ToolTimeoutMs    int
	MaxResponseBytes int
	// Transport carries provider requests; HTTPClient is used when it is
	// nil (natively; under js/wasm there is no outbound net/http).
	Transport   core.Transport
	HTTPClient  *http.Client
	Retries     int
	RetryBaseMs int
	// OnError classifies a failed request (see ErrorInfo); unset, core's
	// default (core.Retryable) decides. A retry is still bounded by Retries.
	OnError           func(ErrorInfo) Tier
	RetryableStatuses []int
	RequestParams     map[string]any
	// BodyTransform gets each request body decoded and returns the body to
	// send (nil: unchanged).
	BodyTransform func(body map[string]any) map[string]any
	OnMetric      func(core.MetricEvent)
	Store         core.ConversationStore
}

// OnError's decisions.
const (
	TierRetry = core.ErrorRetry // retry, while attempts remain
	TierFail  = core.ErrorFail  // give up now
)

// ErrorInfo is what ClientOptions.OnError is told about a failed request:
// Err for a request that got no reply (nil for an HTTP error status),
// Status for an HTTP error status (0 otherwise), Attempt counting from 0,
// and Retryable, the default decision.
type ErrorInfo struct {
	Err       error
	Status    int
	Attempt   int
	Retryable bool
}

// coreClientOptions is o as core's ClientOptions.
func coreClientOptions(o ClientOptions) core.ClientOptions {
	out := core.ClientOptions{
		BaseURL: o.BaseURL, Style: o.Style, Model: o.Model, APIKey: o.APIKey, Headers: o.Headers,
		SystemPrompt: o.SystemPrompt, MaxTurns: o.MaxTurns, MaxTokens: o.MaxTokens,
		WaitFor: o.WaitFor, WaitForContext: o.WaitForContext, Hooks: coreHooks(o.Hooks),
		LockApprovedArgs: o.LockApprovedArgs, TimeoutMs: o.TimeoutMs, ToolTimeoutMs: o.ToolTimeoutMs,
		MaxResponseBytes: o.MaxResponseBytes, Transport: o.Transport, Retries: o.Retries,
		RetryBaseMs: o.RetryBaseMs, RetryableStatuses: o.RetryableStatuses, RequestParams: o.RequestParams,
		OnMetric: portMetrics(o.OnMetric), Store: o.Store,
		// As the Go port logs an error body: account identifiers redacted.
		RedactBody: wire.RedactProviderBody,
	}
	if out.Transport == nil && o.HTTPClient != nil {
		out.Transport = httpClientTransport(o.HTTPClient)
	}
	if f := o.OnError; f != nil {
		statuses := o.RetryableStatuses
		out.ClassifyError = func(err error, attempt int) core.ErrorAction {
			info := ErrorInfo{Err: err, Attempt: attempt - 1, Retryable: core.Retryable(err, statuses)}
			if pe, ok := errors.AsType[*core.ProviderError](err); ok {
				info.Err, info.Status = nil, pe.Status // a status, no error
			}
			return f(info)
		}
	}
	if f := o.BodyTransform; f != nil {
		out.BodyTransform = func(body []byte) ([]byte, error) {
			m, err := jsonx.DecodeObject(body)
			if err != nil {
				return nil, err
			}
			if m = f(m); m == nil {
				return body, nil
			}
			return jsonx.Marshal(m)
		}
	}
	return out
}

// portMetrics hands f each event with the port's status of a model call:
// "ok" for a 2xx reply, else "error" (core reports the HTTP status, or
// "error" or "cancelled").
func portMetrics(f func(core.MetricEvent)) func(core.MetricEvent) {
	if f == nil {
		return nil
	}
	return func(e core.MetricEvent) {
		if e.Kind == "llm" {
			if len(e.Status) == 3 && e.Status[0] == '2' {
				e.Status = "ok"
			} else {
				e.Status = "error"
			}
		}
		f(e)
	}
}

// Client runs the tool-calling loop against one provider endpoint: core's
// Client, with RunResult.Messages decoded into maps as the Go port has
// them. It is safe for concurrent use.
type Client struct {
	*core.Client
	// systemPrompt is ClientOptions.SystemPrompt, which a run with a
	// toolkit that has skills extends (see with).
	systemPrompt string
}

// CreateClient builds a client. A bad option (an unknown Style) is
// reported by the first Run rather than here.
func CreateClient(opts ClientOptions) *Client {
	return &Client{Client: core.CreateClient(coreClientOptions(opts)), systemPrompt: opts.SystemPrompt}
}

// wrapClient is c, made with systemPrompt, as the port's Client.
func wrapClient(c *core.Client, systemPrompt string) *Client {
	return &Client{Client: c, systemPrompt: systemPrompt}
}

// coreClient is c's core client (nil for nil).
func coreClient(c *Client) *core.Client {
	if c == nil {
		return nil
	}
	return c.Client
}

// portResult is res with Messages as the port has them: decoded into maps
// (a message that does not decode stays as it was), and without the
// results core records for the calls a halted turn did not run (core keeps
// its halted transcript balanced; the port leaves those calls without a
// result, and RunWithAnswer runs them either way).
func portResult(res core.RunResult, err error) (core.RunResult, error) {
	res.Messages = decodeMessages(res.Messages)
	return res, err
}

// notRun starts the result core records for a call a halted turn did not
// run (core's notRunMarker).
const notRun = "[toolnexus:not-run]"

func decodeMessages(msgs []any) []any {
	if msgs == nil {
		return nil
	}
	out := make([]any, 0, len(msgs))
	for _, m := range msgs {
		var raw []byte
		switch v := m.(type) {
		case json.RawMessage:
			raw = v
		case []byte:
			raw = v
		default:
			out = append(out, m)
			continue
		}
		v, err := jsonx.DecodeObject(raw)
		if err != nil {
			out = append(out, m)
			continue
		}
		if v = withoutNotRun(v); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// withoutNotRun is m without core's not-run results: nil for an OpenAI tool
// message holding one, m without such tool_result blocks for an Anthropic
// user message (nil when none is left).
func withoutNotRun(m map[string]any) map[string]any {
	if s, _ := m["content"].(string); m["role"] == "tool" && strings.HasPrefix(s, notRun) {
		return nil
	}
	blocks, _ := m["content"].([]any)
	if m["role"] != "user" || len(blocks) == 0 {
		return m
	}
	kept := blocks[:0:0]
	for _, b := range blocks {
		bm, _ := b.(map[string]any)
		if s, _ := bm["content"].(string); bm["type"] == "tool_result" && strings.HasPrefix(s, notRun) {
			continue
		}
		kept = append(kept, b)
	}
	switch {
	case len(kept) == len(blocks):
		return m
	case len(kept) == 0:
		return nil
	}
	m["content"] = kept
	return m
}

// portEvents relays in with each event's Result decoded.
func portEvents(in <-chan core.StreamEvent, err error) (<-chan core.StreamEvent, error) {
	if in == nil || err != nil {
		return in, err
	}
	out := make(chan core.StreamEvent, cap(in))
	go func() {
		defer close(out)
		for ev := range in {
			if ev.Result != nil {
				res, _ := portResult(*ev.Result, nil)
				ev.Result = &res
			}
			out <- ev
		}
	}()
	return out, nil
}

// Run sends prompt as a new user turn and loops until the model answers
// without tool calls, a tool suspends with no WaitFor (Status "pending"),
// or MaxTurns is reached.
func (c *Client) Run(ctx context.Context, prompt string, tk *Toolkit) (core.RunResult, error) {
	return portResult(c.with(tk).Run(ctx, prompt, coreToolkit(tk)))
}

// RunWithHistory is Run continuing an earlier transcript.
func (c *Client) RunWithHistory(ctx context.Context, prompt string, tk *Toolkit, history []any) (core.RunResult, error) {
	return portResult(c.with(tk).RunWithHistory(ctx, prompt, coreToolkit(tk), history))
}

// RunWithAnswer resumes a run that halted on pending with answer.
func (c *Client) RunWithAnswer(ctx context.Context, tk *Toolkit, history []any, pending core.Request, answer core.Answer) (core.RunResult, error) {
	return portResult(c.with(tk).RunWithAnswer(ctx, coreToolkit(tk), history, pending, answer))
}

// Ask is Run against the stored conversation id ("" is Run).
func (c *Client) Ask(ctx context.Context, prompt string, tk *Toolkit, id string) (core.RunResult, error) {
	return portResult(c.with(tk).Ask(ctx, prompt, coreToolkit(tk), id))
}

// AskWithAnswer is RunWithAnswer against the stored conversation id.
func (c *Client) AskWithAnswer(ctx context.Context, tk *Toolkit, id string, pending core.Request, answer core.Answer) (core.RunResult, error) {
	return portResult(c.with(tk).AskWithAnswer(ctx, coreToolkit(tk), id, pending, answer))
}

// AskStream is Ask with the reply's text streamed to onText.
func (c *Client) AskStream(ctx context.Context, prompt string, tk *Toolkit, id string, onText func(delta string)) (core.RunResult, error) {
	return portResult(c.with(tk).AskStream(ctx, prompt, coreToolkit(tk), id, onText))
}

// Stream is Run as a channel of events; the last is "done" or "error".
func (c *Client) Stream(ctx context.Context, prompt string, tk *Toolkit) (<-chan core.StreamEvent, error) {
	return portEvents(c.with(tk).Stream(ctx, prompt, coreToolkit(tk)))
}

// StreamWithHistory is RunWithHistory as a channel of events.
func (c *Client) StreamWithHistory(ctx context.Context, prompt string, tk *Toolkit, history []any) (<-chan core.StreamEvent, error) {
	return portEvents(c.with(tk).StreamWithHistory(ctx, prompt, coreToolkit(tk), history))
}

// StreamWithAnswer is RunWithAnswer as a channel of events.
func (c *Client) StreamWithAnswer(ctx context.Context, tk *Toolkit, history []any, pending core.Request, answer core.Answer) (<-chan core.StreamEvent, error) {
	return portEvents(c.with(tk).StreamWithAnswer(ctx, coreToolkit(tk), history, pending, answer))
}

// StreamWithID is Stream against a stored conversation.
func (c *Client) StreamWithID(ctx context.Context, prompt string, tk *Toolkit, id string) (<-chan core.StreamEvent, error) {
	return portEvents(c.with(tk).StreamWithID(ctx, prompt, coreToolkit(tk), id))
}

// Metrics is the client's counters and histograms in the Prometheus text
// format: model requests by status, tokens, tool calls, durations (see the
// README's drop-in table for how its labels differ from the port's).
func (c *Client) Metrics() string { return c.Client.Metrics() }

// Conversation starts a new conversation with a fresh id in the client's
// store.
func (c *Client) Conversation(tk *Toolkit) *Conversation {
	return &Conversation{c.with(tk).Conversation(coreToolkit(tk))}
}

// with is the core client for a run with tk: as the Go port does, the
// system prompt sent is ClientOptions.SystemPrompt followed by the
// toolkit's SkillsPrompt, when it has one (the skill tool's description
// points the model at that list).
func (c *Client) with(tk *Toolkit) *core.Client {
	skills := coreToolkit(tk).SkillsPrompt()
	if skills == "" {
		return c.Client
	}
	if c.systemPrompt != "" {
		skills = c.systemPrompt + "\n\n" + skills
	}
	return c.Client.WithSystemPrompt(skills)
}

// Conversation is a running conversation (Client.Conversation).
type Conversation struct {
	*core.Conversation
}

// Ask continues the conversation with prompt (stored in the client's store).
func (cv *Conversation) Ask(ctx context.Context, prompt string) (core.RunResult, error) {
	return portResult(cv.Conversation.Ask(ctx, prompt))
}

// AskWithAnswer resumes the conversation's halted run with answer.
func (cv *Conversation) AskWithAnswer(ctx context.Context, pending core.Request, answer core.Answer) (core.RunResult, error) {
	return portResult(cv.Conversation.AskWithAnswer(ctx, pending, answer))
}

// Send continues the conversation's in-memory transcript with prompt.
func (cv *Conversation) Send(ctx context.Context, prompt string) (core.RunResult, error) {
	return portResult(cv.Conversation.Send(ctx, prompt))
}

// TranslateResult is the provider's reply, OpenAI-shaped, with Raw
// decoded (see core.TranslateResult).
type TranslateResult struct {
	Text         string                    `json:"text"`
	ToolCalls    []core.TranslatedToolCall `json:"toolCalls"`
	FinishReason string                    `json:"finishReason"`
	Usage        core.Usage                `json:"usage"`
	Model        string                    `json:"model"`
	// Raw is the provider's reply decoded, for a field this struct does not
	// model; nil for a streamed reply.
	Raw map[string]any `json:"-"`
}

// ToolCallsJSON returns the tool calls as an OpenAI assistant message's
// "tool_calls" array (an empty list when there are none).
func (r TranslateResult) ToolCallsJSON() []any {
	return core.TranslateResult{ToolCalls: r.ToolCalls}.ToolCallsJSON()
}

func portTranslate(res core.TranslateResult, err error) (TranslateResult, error) {
	// The port answers in OpenAI's finish reasons whatever the provider.
	reason := wire.OpenAIFinishReason(res.FinishReason, len(res.ToolCalls) > 0)
	out := TranslateResult{Text: res.Text, ToolCalls: res.ToolCalls, FinishReason: reason, Usage: res.Usage, Model: res.Model}
	if res.Raw != nil {
		out.Raw, _ = jsonx.DecodeObject(res.Raw)
	}
	return out, err
}

// TranslateRequest is one chat-completions request to send to the
// client's provider in its own wire format (see core.TranslateRequest);
// Toolkit declares a toolkit's tools.
type TranslateRequest struct {
	Messages   []any
	Tools      []any
	Toolkit    *Toolkit
	ToolChoice any
	System     string
	MaxTokens  int
	Model      string
}

func (r TranslateRequest) core() core.TranslateRequest {
	return core.TranslateRequest{Messages: r.Messages, Tools: r.Tools, Toolkit: coreToolkit(r.Toolkit),
		ToolChoice: r.ToolChoice, System: r.System, MaxTokens: r.MaxTokens, Model: r.Model}
}

// Translate makes one provider call — no loop, no tool execution.
func (c *Client) Translate(ctx context.Context, req TranslateRequest) (TranslateResult, error) {
	return portTranslate(c.Client.Translate(ctx, req.core()))
}

// TranslateStream is Translate with the reply streamed to onDelta.
func (c *Client) TranslateStream(ctx context.Context, req TranslateRequest, onDelta func(core.StreamEvent)) (TranslateResult, error) {
	return portTranslate(c.Client.TranslateStream(ctx, req.core(), onDelta))
}
