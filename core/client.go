package core

import (
	"context"
	"encoding/json"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/wire"
)

// ClientOptions configures CreateClient. Only BaseURL and Model are needed
// for a working client; every other field has a default.
type ClientOptions struct {
	BaseURL string
	Style   Style // StyleOpenAI (default) or StyleAnthropic
	Model   string
	APIKey  string
	// Headers are added to every provider request (they may override the
	// style's defaults).
	Headers      map[string]string
	SystemPrompt string
	// MaxTurns bounds the model calls of one Run (default 10). A run that
	// reaches it with tool calls still coming ends with Status "incomplete"
	// and Limit "maxTurns".
	MaxTurns int
	// MaxTokens is sent as max_tokens (Anthropic needs it: default 4096).
	MaxTokens int
	// WaitFor resolves a suspended tool call inline. A turn's calls run
	// concurrently, so when several suspend it is called for each at once
	// (from several goroutines), as in the Go port; a relay call is asked on
	// its own. Without it a suspension halts the run with Status "pending"
	// (the turn's relay calls then ride one Request); resume with
	// RunWithAnswer.
	WaitFor func(Request) (Answer, error)
	// WaitForContext is WaitFor with the run's context, for hosts that can
	// withdraw the question (close a dialog) when the run is cancelled. It
	// is used instead of WaitFor when set.
	WaitForContext func(ctx context.Context, req Request) (Answer, error)
	// Hooks observe and steer the loop (hooks.go). Any hook error ends the
	// run.
	Hooks *Hooks
	// LockApprovedArgs refuses approval answers that carry edited arguments
	// (Data["args"]): the call then fails with an error result. Set it when
	// the approver should only say yes or no to exactly what the model asked.
	LockApprovedArgs bool
	// TimeoutMs bounds a whole run (0: no limit beyond ctx). A run it ends
	// returns a *RunTimeoutError with Status "incomplete" and Limit
	// "timeout"; when a WaitFor was waiting, the result also keeps Pending
	// and a transcript RunWithAnswer can finish.
	TimeoutMs int
	// ToolTimeoutMs bounds each tool call (default 60000).
	ToolTimeoutMs int
	// MaxResponseBytes bounds a provider reply (default 32 MiB).
	MaxResponseBytes int
	// Transport carries provider requests. Default: net/http natively; under
	// js/wasm the JS bridge supplies one over fetch.
	Transport Transport

	// Retries is how many times a failed provider request is tried again
	// (0: the default, 2; negative: never). Aborts are never retried.
	Retries int
	// RetryBaseMs is the first backoff delay (default 500), doubled per
	// attempt with jitter. A Retry-After header in seconds takes precedence.
	RetryBaseMs int
	// ClassifyError classifies a failed request: it gets the whole error
	// (a *ProviderError carries the reply's start) and the attempt counting
	// from 1. ErrorDefault leaves it to Retryable: 429, 500, 502, 503, 504,
	// 529, RetryableStatuses and network errors. A decision to retry is
	// still bounded by Retries.
	ClassifyError func(err error, attempt int) ErrorAction
	// RetryableStatuses are HTTP statuses retried in addition to the
	// default set.
	RetryableStatuses []int
	// RequestParams are merged into every request body (temperature, …).
	// "messages", "tools" and "stream" are refused: the loop owns them.
	RequestParams map[string]any
	// BodyTransform rewrites each encoded request body just before it is
	// sent; an error fails the request.
	BodyTransform func(body []byte) ([]byte, error)
	// OnMetric receives an event per provider request, tool call and run.
	OnMetric func(MetricEvent)
	// Store keeps conversations for Ask (default: in memory).
	Store ConversationStore
	// RedactBody, when set, is what a ProviderError keeps of an error
	// reply's body (the API key already removed); the default drops 401
	// and 403 bodies and keeps the others.
	RedactBody func(status int, body string) string
}

// RunResult is what a run produced. Messages is the transcript in the
// provider's wire format (without the system prompt: core sends that apart
// on every request), each element the json.RawMessage the loop sent:
// handed back as history it costs no encoding.
type RunResult struct {
	Text          string     `json:"text"`
	Messages      []any      `json:"messages"`
	ToolCalls     []ToolCall `json:"toolCalls"`
	ToolCallCount int        `json:"toolCallCount"`
	Turns         int        `json:"turns"`
	Usage         Usage      `json:"usage"`
	// Model is the model the run asked for (ClientOptions.Model), as in the
	// Go port; ProviderModel is the one the provider said answered its last
	// call ("" when it did not say), which can differ behind a router.
	Model         string `json:"model"`
	ProviderModel string `json:"providerModel,omitempty"`
	// Status is "done", "pending" (halted on a suspension: Pending is set)
	// or "incomplete" (Limit says why: "maxTurns" or "error").
	Status  string   `json:"status"`
	Limit   string   `json:"limit,omitempty"`
	Pending *Request `json:"pending,omitempty"`
	// Decisions are the run's approval decisions (rules', grants',
	// people's), in order, unchained: an approval.Log (the OnDecision of
	// Options.Approvals) chains them into a record. A continued run has its
	// journal's too.
	Decisions []approval.Entry `json:"decisions,omitempty"`
}

// ToolCall is the record of one finished tool call of a run
// (RunResult.ToolCalls), as in the Go port: the port's Name, Args, Output,
// IsError and Metadata, plus what core adds. The model's request for a call
// is ToolRequest.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Args are the arguments the tool ran with, decoded, as in the port:
	// after a BeforeTool hook's rewrite or an approval's edit. Nil when the
	// call's text was not a JSON object. Go callers only, like Metadata.
	Args map[string]any `json:"-"`
	// RawArgs is the call's argument text as the transcript keeps it (the
	// model's, or an approval's edit), which the record's JSON carries
	// under "args"; text that is not JSON is there as a JSON string. When
	// an approval edited it (Answer.Data["args"]), OriginalArgs keeps what
	// the model asked for, so a reviewer sees both.
	RawArgs      json.RawMessage `json:"args"`
	OriginalArgs json.RawMessage `json:"originalArgs,omitempty"`
	Output       string          `json:"output"`
	IsError      bool            `json:"isError"`
	// Edited is true when the approval replaced the model's arguments: Args
	// are then the ones that ran, OriginalArgs the ones asked for.
	Edited bool `json:"edited,omitempty"`
	// Declined is true when a person declined the call: it did not run, and
	// Output carries the reason the model was told.
	Declined bool `json:"declined,omitempty"`
	// Metadata is the tool result's metadata (a todo list, a declined
	// reason, …). Go callers only: unlike the port's, it stays out of the
	// record's JSON, which the JS bridge and the Worker emit unchanged.
	Metadata map[string]any `json:"-"`
}

// Run statuses.
const (
	StatusDone       = "done"
	StatusPending    = "pending"
	StatusIncomplete = "incomplete"
)

// Client runs the tool-calling loop against one provider endpoint. It is
// safe for concurrent use; each Run keeps its own state.
type Client struct {
	opts   ClientOptions
	wire   wire.Format
	params []byte // RequestParams, encoded once as `,"k":v…`
	// wparams are the request params of a turn without and with tools
	// (requestParams), made once.
	wparams [2]*wire.Params
	metrics *MetricsRegistry
	err     error // a bad option, reported by every Run
}

const (
	defaultMaxTurns         = 10
	defaultToolTimeoutMs    = 60_000
	defaultMaxResponseBytes = 32 << 20
)

// CreateClient builds a client. A bad option (an unknown Style) is reported
// by the first Run rather than here.
func CreateClient(opts ClientOptions) *Client {
	if opts.MaxTurns <= 0 {
		opts.MaxTurns = defaultMaxTurns
	}
	if opts.ToolTimeoutMs <= 0 {
		opts.ToolTimeoutMs = defaultToolTimeoutMs
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = defaultMaxResponseBytes
	}
	if opts.Transport == nil {
		opts.Transport = defaultTransport()
	}
	if opts.Retries == 0 {
		opts.Retries = defaultRetries
	} else if opts.Retries < 0 {
		opts.Retries = 0
	}
	if opts.RetryBaseMs <= 0 {
		opts.RetryBaseMs = defaultRetryBaseMs
	}
	if opts.Store == nil {
		opts.Store = NewMemoryStore()
	}
	c := &Client{opts: opts, metrics: NewMetricsRegistry()}
	c.wire, c.err = wire.For(opts.Style)
	if c.err == nil {
		c.params, c.err = encodeParams(opts.RequestParams)
	}
	if c.err == nil {
		c.wparams = [2]*wire.Params{c.requestParams(&c.opts, false), c.requestParams(&c.opts, true)}
	}
	return c
}

// Metrics returns the client's counters in the Prometheus text format.
func (c *Client) Metrics() string { return c.metrics.Text() }

// emit records a metric event and hands it to OnMetric.
func (c *Client) emit(e MetricEvent) {
	c.metrics.Record(e)
	if c.opts.OnMetric != nil {
		c.opts.OnMetric(e.withPortFields())
	}
}

// orBackground treats a nil ctx as context.Background(): every exported
// call that takes a context accepts nil, as the Go port does.
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// Run sends prompt as a new user turn and loops until the model answers
// without tool calls, a tool suspends with no WaitFor (Status "pending"), or
// MaxTurns is reached. On error the partial result (everything completed
// before the failure) comes back with it.
func (c *Client) Run(ctx context.Context, prompt string, tk *Toolkit) (RunResult, error) {
	return c.RunWithHistory(orBackground(ctx), prompt, tk, nil)
}

// RunWithHistory is Run continuing an earlier transcript (RunResult.Messages
// of an earlier run, or messages in the provider's format).
func (c *Client) RunWithHistory(ctx context.Context, prompt string, tk *Toolkit, history []any) (RunResult, error) {
	ctx = orBackground(ctx)
	r, err := c.newRun(tk, history)
	if err != nil {
		return RunResult{Status: StatusIncomplete, Limit: "error", Messages: history}, err
	}
	r.appendMessage(c.wire.UserMessage(prompt))
	return r.loop(ctx, nil)
}

// WithSystemPrompt is c with another system prompt: the same options,
// provider, store and metrics (Metrics counts both), for a run whose
// prompt depends on something only the caller knows — a user, a toolkit's
// skills (SkillsPrompt). c is unchanged.
func (c *Client) WithSystemPrompt(prompt string) *Client {
	cp := *c
	cp.opts.SystemPrompt = prompt
	cp.wparams = [2]*wire.Params{} // made with c's prompt: remade below
	if cp.err == nil {
		cp.wparams = [2]*wire.Params{cp.requestParams(&cp.opts, false), cp.requestParams(&cp.opts, true)}
	}
	return &cp
}
