package core

import (
	"encoding/json"
	"fmt"
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
	// Text and ToolCalls (after a hook rewrote them).
	message json.RawMessage
}

// Usage counts tokens; RunResult sums it over turns.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

func (u *Usage) add(o Usage) {
	u.PromptTokens += o.PromptTokens
	u.CompletionTokens += o.CompletionTokens
	u.TotalTokens += o.TotalTokens
}

// toolOutcome is one finished tool call as the transcript records it.
type toolOutcome struct {
	id      string
	content string
	isError bool
}

// wireFormat is what differs between providers: where to post, how to shape
// the body and the transcript messages, and how to read replies.
type wireFormat interface {
	endpoint(base string) string
	headers(apiKey string) map[string]string
	// body builds the request from pre-encoded parts: joined is the
	// transcript's messages already joined with commas, tools the cached
	// tool list (nil when empty).
	body(o *ClientOptions, joined, tools []byte, stream bool) []byte
	parse(body []byte) (LLMResponse, error)
	// newStream returns an accumulator for one streamed reply.
	newStream() streamAccumulator
	userMessage(text string) json.RawMessage
	assistantMessage(r LLMResponse) json.RawMessage
	toolResults(results []toolOutcome) []json.RawMessage
	// haltedTurn finds the last assistant message with tool calls and the
	// results recorded after it, by call id.
	haltedTurn(msgs []json.RawMessage) (idx int, calls []ToolCall, results map[string]toolOutcome)
}

func wireFor(s Style) (wireFormat, error) {
	switch Style(strings.ToLower(string(s))) {
	case StyleOpenAI, "":
		return openAIWire{}, nil
	case StyleAnthropic:
		return anthropicWire{}, nil
	}
	return nil, fmt.Errorf("core: unknown style %q (want %q or %q)", s, StyleOpenAI, StyleAnthropic)
}

// ProviderError is a non-2xx reply from the model provider.
type ProviderError struct {
	Status int
	// Body is the start of the provider's reply, with the API key redacted.
	Body string
	// RetryAfter is the reply's Retry-After header, as sent ("" when none).
	RetryAfter string
}

func (e *ProviderError) Error() string {
	return fmt.Sprintf("core: provider returned HTTP %d: %s", e.Status, e.Body)
}

// appendRawList appends `"key":[` + joined + `]`.
func appendRawList(dst []byte, key string, joined []byte) []byte {
	dst = append(dst, '"')
	dst = append(dst, key...)
	dst = append(dst, `":[`...)
	dst = append(dst, joined...)
	return append(dst, ']')
}
