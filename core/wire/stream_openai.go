package wire

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// openAIStream assembles a chat-completions stream: text deltas, tool-call
// deltas merged by index, the finish reason and the final usage chunk.
type openAIStream struct {
	text      strings.Builder
	calls     []ToolCall
	model     string
	finish    string
	usage     Usage
	completed bool
}

func (OpenAI) NewStream() Stream { return &openAIStream{} }

func (s *openAIStream) Event(_ string, data []byte, emit func(Delta)) (bool, error) {
	if string(data) == "[DONE]" {
		s.completed = true
		return true, nil
	}
	if err := jsonx.CheckText(data, "core: ", "stream chunk"); err != nil {
		return false, err
	}
	chunk := gjson.ParseBytes(data)
	if e := chunk.Get("error"); e.Exists() && e.Type != gjson.Null {
		return false, fmt.Errorf("core: provider error in stream: %s", firstNonEmpty(e.Get("message").String(), e.Raw))
	}
	if m := chunk.Get("model").String(); m != "" {
		s.model = m
	}
	if u := chunk.Get("usage"); u.IsObject() {
		s.usage = Usage{
			PromptTokens:     int(u.Get("prompt_tokens").Int()),
			CompletionTokens: int(u.Get("completion_tokens").Int()),
			TotalTokens:      int(u.Get("total_tokens").Int()),
		}
	}
	choice := chunk.Get("choices.0")
	if d := choice.Get("delta.content").String(); d != "" {
		s.text.WriteString(d)
		if emit != nil {
			emit(Delta{Type: DeltaText, Text: d})
		}
	}
	for _, tc := range choice.Get("delta.tool_calls").Array() {
		i := int(tc.Get("index").Int())
		if i < 0 || i > 1024 {
			return false, fmt.Errorf("core: stream tool call index %d out of range", i)
		}
		for len(s.calls) <= i {
			s.calls = append(s.calls, ToolCall{})
		}
		c := &s.calls[i]
		id, name, args := tc.Get("id").String(), tc.Get("function.name").String(), tc.Get("function.arguments").String()
		if id != "" {
			c.ID = id
		}
		c.Name += name
		c.Arguments += args
		if emit != nil {
			emit(Delta{Type: DeltaToolCall, Index: i, ID: id, Name: name, Args: args})
		}
	}
	if f := choice.Get("finish_reason").String(); f != "" {
		s.finish = f
	}
	return false, nil
}

func (s *openAIStream) Complete() bool { return s.completed || s.finish != "" }

func (s *openAIStream) Response() LLMResponse {
	r := LLMResponse{Text: s.text.String(), Model: s.model, FinishReason: s.finish, Usage: s.usage}
	for i, c := range s.calls {
		if c.Name == "" {
			continue
		}
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d_%s", i, tool.NewID(""))
		}
		r.ToolCalls = append(r.ToolCalls, c)
	}
	return r
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
