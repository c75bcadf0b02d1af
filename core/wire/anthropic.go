package wire

import (
	"encoding/json"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Anthropic speaks the Anthropic messages API.
type Anthropic struct{}

// anthropicDefaultMaxTokens is sent when Params.MaxTokens is 0: the
// messages API requires max_tokens.
const anthropicDefaultMaxTokens = 4096

func (Anthropic) Endpoint(base string) string {
	base = strings.TrimRight(base, "/")
	if strings.HasSuffix(base, "/v1") {
		return base + "/messages"
	}
	return base + "/v1/messages"
}

func (Anthropic) Headers(apiKey string) map[string]string {
	h := map[string]string{"content-type": "application/json", "anthropic-version": "2023-06-01"}
	if apiKey != "" {
		h["x-api-key"] = apiKey
	}
	return h
}

func (Anthropic) Body(dst []byte, o *Params, joined, tools []byte, stream bool) []byte {
	b := grow(dst, len(joined)+len(tools)+len(o.SystemPrompt)+len(o.Extra)+128)
	b = append(b, `{"model":`...)
	b = jsonx.AppendString(b, o.Model)
	maxTokens := o.MaxTokens
	if maxTokens <= 0 {
		maxTokens = anthropicDefaultMaxTokens
	}
	if !o.MaxTokensInParams {
		b = append(b, `,"max_tokens":`...)
		b = strconv.AppendInt(b, int64(maxTokens), 10)
	}
	if o.SystemPrompt != "" {
		b = append(b, `,"system":`...)
		b = jsonx.AppendString(b, o.SystemPrompt)
	}
	b = append(b, ',')
	b = appendRawList(b, "messages", joined)
	if len(tools) > 0 {
		b = append(b, `,"tools":`...)
		b = append(b, tools...)
	}
	if stream {
		b = append(b, `,"stream":true`...)
	}
	b = append(b, o.Extra...)
	return append(b, '}')
}

func (Anthropic) Parse(body []byte) (LLMResponse, error) {
	if err := jsonx.CheckText(body, "core: ", "provider reply"); err != nil {
		return LLMResponse{}, err
	}
	doc := gjson.ParseBytes(body)
	if doc.Get("type").String() == "error" {
		return LLMResponse{}, fmt.Errorf("core: provider error: %s", doc.Get("error.message").String())
	}
	content := doc.Get("content")
	if !content.IsArray() {
		return LLMResponse{}, fmt.Errorf("core: provider reply has no content array")
	}
	in, out := doc.Get("usage.input_tokens").Int(), doc.Get("usage.output_tokens").Int()
	r := LLMResponse{
		Model:        doc.Get("model").String(),
		FinishReason: doc.Get("stop_reason").String(),
		Usage:        Usage{PromptTokens: int(in), CompletionTokens: int(out), TotalTokens: int(in + out)},
	}
	var text strings.Builder
	for _, block := range content.Array() {
		switch block.Get("type").String() {
		case "text":
			text.WriteString(block.Get("text").String())
		case "tool_use":
			input := block.Get("input").Raw
			if input == "" {
				input = "{}"
			}
			id := block.Get("id").String()
			if id == "" {
				id = tool.NewID("toolu_")
			}
			r.ToolCalls = append(r.ToolCalls, ToolCall{ID: id, Name: block.Get("name").String(), Arguments: input})
		}
	}
	r.Text = text.String()
	// The content blocks go back verbatim (thinking blocks must keep their
	// signatures) unless a tool_use lacked an id we had to invent.
	if !strings.Contains(content.Raw, `"tool_use"`) || allIDsPresent(content) {
		r.message = append(append([]byte(`{"role":"assistant","content":`), content.Raw...), '}')
	}
	return r, nil
}

func allIDsPresent(content gjson.Result) bool {
	for _, block := range content.Array() {
		if block.Get("type").String() == "tool_use" && block.Get("id").String() == "" {
			return false
		}
	}
	return true
}

func (Anthropic) UserMessage(text string) json.RawMessage {
	b := []byte(`{"role":"user","content":`)
	b = jsonx.AppendString(b, text)
	return append(b, '}')
}

func (Anthropic) AssistantMessage(r LLMResponse) json.RawMessage {
	if r.message != nil {
		return r.message
	}
	b := []byte(`{"role":"assistant","content":[`)
	n := 0
	if r.Text != "" {
		b = append(b, `{"type":"text","text":`...)
		b = jsonx.AppendString(b, r.Text)
		b = append(b, '}')
		n++
	}
	for _, tc := range r.ToolCalls {
		if n > 0 {
			b = append(b, ',')
		}
		n++
		input := strings.TrimSpace(tc.Arguments)
		if input == "" || jsonx.Check([]byte(input)) != nil || !gjson.Parse(input).IsObject() {
			input = "{}" // Anthropic requires an object; the bad text is reported in the tool result
		}
		b = append(b, `{"type":"tool_use","id":`...)
		b = jsonx.AppendString(b, tc.ID)
		b = append(b, `,"name":`...)
		b = jsonx.AppendString(b, tc.Name)
		b = append(b, `,"input":`...)
		b = append(b, input...)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// ToolResults puts every result of a turn into one user message, as the
// messages API requires.
func (Anthropic) ToolResults(results []ToolOutcome) []json.RawMessage {
	if len(results) == 0 {
		return nil
	}
	b := []byte(`{"role":"user","content":[`)
	for i, r := range results {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"tool_result","tool_use_id":`...)
		b = jsonx.AppendString(b, r.ID)
		b = append(b, `,"content":`...)
		b = jsonx.AppendString(b, r.Content)
		if r.IsError {
			b = append(b, `,"is_error":true`...)
		}
		b = append(b, '}')
	}
	return []json.RawMessage{append(b, "]}"...)}
}

// AnthropicWithArgs puts the arguments of each edited call (asked[k] set)
// in the input of its tool_use block, found by id, and keeps every other
// byte: thinking blocks must go back unchanged.
func AnthropicWithArgs(msg json.RawMessage, calls []ToolCall, asked []string) json.RawMessage {
	doc := string(msg)
	out := make([]byte, 0, len(msg)+64)
	at := 0
	for k, call := range calls {
		if k >= len(asked) || asked[k] == "" {
			continue
		}
		// Index is where the input starts in doc; calls come in its order.
		input := gjson.Get(doc, `content.#(id==`+string(jsonx.AppendString(nil, call.ID))+`).input`)
		if input.Index > at {
			out = append(append(out, doc[at:input.Index]...), call.Arguments...)
			at = input.Index + len(input.Raw)
		}
	}
	return append(out, doc[at:]...)
}

func (Anthropic) HaltedTurn(msgs []json.RawMessage) (int, []ToolCall, map[string]ToolOutcome) {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := gjson.ParseBytes(msgs[i])
		if m.Get("role").String() != "assistant" {
			continue
		}
		var calls []ToolCall
		for _, block := range m.Get("content").Array() {
			if block.Get("type").String() == "tool_use" {
				calls = append(calls, ToolCall{ID: block.Get("id").String(), Name: block.Get("name").String(), Arguments: block.Get("input").Raw})
			}
		}
		if len(calls) == 0 {
			return -1, nil, nil
		}
		results := map[string]ToolOutcome{}
		for _, raw := range msgs[i+1:] {
			for _, block := range gjson.ParseBytes(raw).Get("content").Array() {
				if block.Get("type").String() == "tool_result" {
					id := block.Get("tool_use_id").String()
					results[id] = ToolOutcome{ID: id, Content: block.Get("content").String(), IsError: block.Get("is_error").Bool()}
				}
			}
		}
		return i, calls, results
	}
	return -1, nil, nil
}
