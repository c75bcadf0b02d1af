package wire

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// anthropicStream assembles a messages stream: message_start, content
// blocks (text deltas, tool input JSON deltas), message_delta, message_stop.
type anthropicStream struct {
	// blocks are pointers: a block holds strings.Builders, which must not
	// be copied when the slice grows (found by FuzzStream).
	blocks    []*anthropicBlock
	calls     int // tool_use blocks started so far
	model     string
	finish    string
	usage     Usage
	completed bool
}

type anthropicBlock struct {
	kind  string // "text", "tool_use", or another type we keep no data for
	call  int    // a tool_use block's position among the reply's tool calls
	text  strings.Builder
	id    string
	name  string
	input strings.Builder
}

func (Anthropic) NewStream() Stream { return &anthropicStream{} }

func (s *anthropicStream) Event(name string, data []byte, emit func(Delta)) (bool, error) {
	if err := jsonx.CheckText(data, "core: ", fmt.Sprintf("stream event %q", name)); err != nil {
		return false, err
	}
	ev := gjson.ParseBytes(data)
	if name == "" {
		name = ev.Get("type").String()
	}
	switch name {
	case "message_start":
		s.model = ev.Get("message.model").String()
		s.usage.PromptTokens = int(ev.Get("message.usage.input_tokens").Int())
	case "content_block_start":
		b, err := s.block(ev)
		if err != nil {
			return false, err
		}
		cb := ev.Get("content_block")
		b.kind, b.id, b.name = cb.Get("type").String(), cb.Get("id").String(), cb.Get("name").String()
		b.text.WriteString(cb.Get("text").String())
		if b.kind == "tool_use" {
			b.call = s.calls
			s.calls++
			if emit != nil {
				emit(Delta{Type: DeltaToolCall, Index: b.call, ID: b.id, Name: b.name})
			}
		}
	case "content_block_delta":
		b, err := s.block(ev)
		if err != nil {
			return false, err
		}
		d := ev.Get("delta")
		switch d.Get("type").String() {
		case "text_delta":
			t := d.Get("text").String()
			b.text.WriteString(t)
			if emit != nil && t != "" {
				emit(Delta{Type: DeltaText, Text: t})
			}
		case "input_json_delta":
			piece := d.Get("partial_json").String()
			b.input.WriteString(piece)
			if emit != nil && b.kind == "tool_use" && piece != "" {
				emit(Delta{Type: DeltaToolCall, Index: b.call, Args: piece})
			}
		}
	case "message_delta":
		if f := ev.Get("delta.stop_reason").String(); f != "" {
			s.finish = f
		}
		if n := ev.Get("usage.output_tokens"); n.Exists() {
			s.usage.CompletionTokens = int(n.Int())
		}
	case "message_stop":
		s.completed = true
		return true, nil
	case "error":
		return false, fmt.Errorf("core: provider error in stream: %s", firstNonEmpty(ev.Get("error.message").String(), ev.Raw))
	}
	return false, nil
}

// block returns the content block an event addresses, growing the list.
func (s *anthropicStream) block(ev gjson.Result) (*anthropicBlock, error) {
	i := int(ev.Get("index").Int())
	if i < 0 || i > 1024 {
		return nil, fmt.Errorf("core: stream content block index %d out of range", i)
	}
	for len(s.blocks) <= i {
		s.blocks = append(s.blocks, &anthropicBlock{})
	}
	return s.blocks[i], nil
}

func (s *anthropicStream) Complete() bool { return s.completed }

func (s *anthropicStream) Response() LLMResponse {
	r := LLMResponse{Model: s.model, FinishReason: s.finish, Usage: s.usage}
	r.Usage.TotalTokens = r.Usage.PromptTokens + r.Usage.CompletionTokens
	var text strings.Builder
	for _, b := range s.blocks {
		switch b.kind {
		case "text":
			text.WriteString(b.text.String())
		case "tool_use":
			input := strings.TrimSpace(b.input.String())
			if input == "" {
				input = "{}"
			}
			id := b.id
			if id == "" {
				id = tool.NewID("toolu_")
			}
			r.ToolCalls = append(r.ToolCalls, ToolCall{ID: id, Name: b.name, Arguments: input})
		}
	}
	r.Text = text.String()
	return r
}
