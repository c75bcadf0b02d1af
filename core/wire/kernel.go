package wire

import (
	"encoding/json"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// What the loop and Translate ask of a Format beyond one request and its
// reply, so that core switches on no provider. Functions over a Format
// rather than methods of it: an interface method costs every wasm build
// its code and a wrapper for both formats, used or not.

// AppendToolDecl appends one tool declaration in f's shape, keys in sorted
// order (as an encoded map has them): OpenAI's function with parameters,
// Anthropic's tool with input_schema.
func AppendToolDecl(f Format, dst []byte, name, description string, schema any) ([]byte, error) {
	if _, ok := f.(Anthropic); ok {
		dst = jsonx.AppendString(append(dst, `{"description":`...), description)
		dst, err := jsonx.Append(append(dst, `,"input_schema":`...), schema)
		dst = jsonx.AppendString(append(dst, `,"name":`...), name)
		return append(dst, '}'), err
	}
	dst = jsonx.AppendString(append(dst, `{"function":{"description":`...), description)
	dst = jsonx.AppendString(append(dst, `,"name":`...), name)
	dst, err := jsonx.Append(append(dst, `,"parameters":`...), schema)
	return append(dst, `},"type":"function"}`...), err
}

// ToolChoice is OpenAI's tool_choice in f's shape, as JSON text: as it is
// for OpenAI, mapped by AnthropicToolChoice for Anthropic. Nil is none, or
// the format's default ("auto" is Anthropic's).
func ToolChoice(f Format, choice any) (json.RawMessage, error) {
	if _, ok := f.(Anthropic); ok {
		return AnthropicToolChoice(choice), nil
	}
	if choice == nil {
		return nil, nil
	}
	return jsonx.Marshal(choice)
}

// WithArgs is the assistant message msg with its calls' arguments as they
// ran (asked[k] set for each call an approval edited): Anthropic's keeps
// every other byte (AnthropicWithArgs), OpenAI's is rebuilt from its text
// and the calls.
func WithArgs(f Format, msg json.RawMessage, calls []ToolCall, asked []string) json.RawMessage {
	if _, ok := f.(Anthropic); ok {
		return AnthropicWithArgs(msg, calls, asked)
	}
	return OpenAI{}.AssistantMessage(LLMResponse{Text: gjson.Get(string(msg), "content").String(), ToolCalls: calls})
}

// TranslateBody is f's request for OpenAI-shaped messages and tools;
// system, when set, replaces the system prompt. For OpenAI they go as they
// are (the messages' own system message wins over p's prompt); for
// Anthropic they are converted (AnthropicTranslateBody).
func TranslateBody(f Format, p *Params, msgs, tools []json.RawMessage, system string, stream bool) ([]byte, error) {
	if _, ok := f.(Anthropic); ok {
		return AnthropicTranslateBody(p, msgs, tools, system, stream)
	}
	o := *p
	switch {
	case system != "":
		o.SystemPrompt = system
	case HasSystemMessage(msgs):
		o.SystemPrompt = "" // the messages carry their own
	}
	return OpenAI{}.Body(nil, &o, JoinRaw(msgs), JoinList(tools), stream), nil
}
