package core

import "github.com/toolnexus/wasm/core/wire"

// The provider wire formats live in package core/wire; core re-exports
// its public types under their own names: core.Usage is wire.Usage.

// Style selects a provider wire format.
type Style = wire.Style

// The wire styles core speaks.
const (
	StyleOpenAI    = wire.StyleOpenAI    // POST {base}/chat/completions
	StyleAnthropic = wire.StyleAnthropic // POST {base}/v1/messages
)

// ToolRequest is one tool call the model asked for: its id, tool name and
// argument text as the provider sent them (LLMResponse.ToolCalls,
// GenerateResponse.ToolCalls). The record of a finished call is ToolCall.
type ToolRequest = wire.ToolCall

// LLMResponse is one parsed provider reply. Hooks may read and rewrite it.
type LLMResponse = wire.LLMResponse

// Usage counts tokens; RunResult sums it over turns.
type Usage = wire.Usage

// ProviderError is a non-2xx reply from the model provider; its text is
// the Go port's, "LLM <status>: <body>".
type ProviderError = wire.ProviderError

// toolOutcome is one finished tool call as the transcript records it.
type toolOutcome = wire.ToolOutcome

// wireParams are the body settings of a request with options o.
func wireParams(o *ClientOptions) *wire.Params {
	_, set := o.RequestParams["max_tokens"]
	return &wire.Params{Model: o.Model, SystemPrompt: o.SystemPrompt, MaxTokens: o.MaxTokens, MaxTokensInParams: set}
}

// requestParams is the wire.Params of a request for o.Model; with tools it
// asks for tool_choice "auto" unless RequestParams set one. The client's
// own (o is c.opts) are made once, by CreateClient: they do not change
// from turn to turn.
func (c *Client) requestParams(o *ClientOptions, withTools bool) *wire.Params {
	i := 0
	if withTools {
		i = 1
	}
	if o == &c.opts && c.wparams[i] != nil {
		return c.wparams[i]
	}
	p := wireParams(o)
	p.Extra = c.params
	if _, set := o.RequestParams["tool_choice"]; !set && withTools {
		if tc, _ := wire.ToolChoice(c.wire, "auto"); tc != nil {
			p.Extra = append(append([]byte(`,"tool_choice":`), tc...), c.params...)
		}
	}
	return p
}

// streamEvent is the stream event of a reply's delta.
func streamEvent(d wire.Delta) StreamEvent {
	return StreamEvent{Type: d.Type, Delta: d.Text, Index: d.Index, ID: d.ID, Name: d.Name, ArgsJSON: d.Args}
}
