package wire

import (
	"encoding/json"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
)

// Style selects a provider wire format.
type Style string

// The wire styles core speaks.
const (
	StyleOpenAI    Style = "openai"    // POST {base}/chat/completions
	StyleAnthropic Style = "anthropic" // POST {base}/v1/messages
)

// ToolCall is one tool call the model asked for.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the raw JSON text the model sent.
	Arguments string `json:"arguments"`
}

// LLMResponse is one parsed provider reply. Hooks may read and rewrite it.
type LLMResponse struct {
	Text         string     `json:"text"`
	ToolCalls    []ToolCall `json:"toolCalls"`
	Usage        Usage      `json:"usage"`
	Model        string     `json:"model"`
	FinishReason string     `json:"finishReason"`
	// message is the assistant message to append, exactly as the provider
	// sent it where that is safe to send back; nil means build it from
	// Text and ToolCalls (after a hook rewrote them). Unexported so that
	// core's LLMResponse, an alias, shows no new field: DropMessage clears it.
	message json.RawMessage
}

// DropMessage makes AssistantMessage rebuild r's transcript message from
// Text and ToolCalls rather than send back the provider's own: for a reply
// a hook may have rewritten.
func DropMessage(r *LLMResponse) { r.message = nil }

// Usage counts tokens; core's RunResult sums it over turns.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

// AddUsage adds o's counts to u.
func AddUsage(u *Usage, o Usage) {
	u.PromptTokens += o.PromptTokens
	u.CompletionTokens += o.CompletionTokens
	u.TotalTokens += o.TotalTokens
}

// ToolOutcome is one finished tool call as the transcript records it.
type ToolOutcome struct {
	ID      string
	Content string
	IsError bool
}

// Params are the request settings a body carries besides the transcript
// and the tools (core fills them from its ClientOptions).
type Params struct {
	_            noCompare
	Model        string
	SystemPrompt string
	// MaxTokens is the reply's token limit; 0 leaves it to the provider
	// (Anthropic requires one: anthropicDefaultMaxTokens).
	MaxTokens int
	// MaxTokensInParams says the caller's extra request parameters carry
	// max_tokens, so the body leaves it out.
	MaxTokensInParams bool
	// Extra is raw object members, each starting with a comma (tool_choice,
	// the caller's RequestParams), written before the body's closing brace:
	// splicing them in afterwards copied the whole body again.
	Extra []byte
}

// noCompare, a first field, makes a struct not comparable: the compiler
// then generates no equality function for it (about 0.5-1 kB of wasm
// each, for types nothing compares).
type noCompare [0]func()

// Format is what differs between providers: where to post, how to shape
// the body and the transcript messages, and how to read replies.
type Format interface {
	Endpoint(base string) string
	Headers(apiKey string) map[string]string
	// Body appends the request to dst from pre-encoded parts: joined is
	// the transcript's messages already joined with commas, tools the
	// cached tool list (nil when empty). dst lets a run reuse one buffer
	// for its requests.
	Body(dst []byte, p *Params, joined, tools []byte, stream bool) []byte
	Parse(body []byte) (LLMResponse, error)
	// NewStream returns an accumulator for one streamed reply.
	NewStream() Stream
	UserMessage(text string) json.RawMessage
	AssistantMessage(r LLMResponse) json.RawMessage
	ToolResults(results []ToolOutcome) []json.RawMessage
	// HaltedTurn finds the last assistant message with tool calls and the
	// results recorded after it, by call id.
	HaltedTurn(msgs []json.RawMessage) (idx int, calls []ToolCall, results map[string]ToolOutcome)
}

// For returns the Format of a style ("" is OpenAI's).
func For(s Style) (Format, error) {
	switch Style(strings.ToLower(string(s))) {
	case StyleOpenAI, "":
		return OpenAI{}, nil
	case StyleAnthropic:
		return Anthropic{}, nil
	}
	return nil, fmt.Errorf("core: unknown style %q (want %q or %q)", s, StyleOpenAI, StyleAnthropic)
}

// appendRawList appends `"key":[` + joined + `]`.
func appendRawList(dst []byte, key string, joined []byte) []byte {
	dst = append(dst, '"')
	dst = append(dst, key...)
	dst = append(dst, `":[`...)
	dst = append(dst, joined...)
	return append(dst, ']')
}

// grow returns dst with room for n more bytes, reallocated only when
// short, then with an eighth to spare: a run's requests grow by a turn
// each, so one buffer holds a run's requests (slices.Grow's generic code
// cost the wasm build more).
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) < n {
		need := len(dst) + n
		dst = append(make([]byte, 0, need+need/8), dst...)
	}
	return dst
}
