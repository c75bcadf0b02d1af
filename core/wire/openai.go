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

// OpenAI speaks OpenAI chat completions.
type OpenAI struct{}

func (OpenAI) Endpoint(base string) string {
	return strings.TrimRight(base, "/") + "/chat/completions"
}

func (OpenAI) Headers(apiKey string) map[string]string {
	h := map[string]string{"content-type": "application/json"}
	if apiKey != "" {
		h["authorization"] = "Bearer " + apiKey
	}
	return h
}

func (OpenAI) Body(dst []byte, o *Params, joined, tools []byte, stream bool) []byte {
	b := grow(dst, len(joined)+len(tools)+len(o.SystemPrompt)+len(o.Extra)+128)
	b = append(b, `{"model":`...)
	b = jsonx.AppendString(b, o.Model)
	b = append(b, `,"messages":[`...)
	if o.SystemPrompt != "" {
		b = append(b, `{"role":"system","content":`...)
		b = jsonx.AppendString(b, o.SystemPrompt)
		b = append(b, '}')
		if len(joined) > 0 {
			b = append(b, ',')
		}
	}
	b = append(b, joined...)
	b = append(b, ']')
	if len(tools) > 0 {
		b = append(b, `,"tools":`...)
		b = append(b, tools...)
	}
	if !o.MaxTokensInParams && o.MaxTokens > 0 {
		b = append(b, `,"max_tokens":`...)
		b = strconv.AppendInt(b, int64(o.MaxTokens), 10)
	}
	if stream {
		b = append(b, `,"stream":true,"stream_options":{"include_usage":true}`...)
	}
	b = append(b, o.Extra...)
	return append(b, '}')
}

func (OpenAI) Parse(body []byte) (LLMResponse, error) {
	if err := jsonx.CheckText(body, "core: ", "provider reply"); err != nil {
		return LLMResponse{}, err
	}
	// One pass over the top level instead of a path lookup from the top
	// per field: the lookups were most of a turn's parsing. The first of
	// duplicate keys wins, as with gjson.Get.
	var e, choices, model, usage gjson.Result
	gjson.ParseBytes(body).ForEach(func(k, v gjson.Result) bool {
		var dst *gjson.Result
		switch k.Str {
		case "error":
			dst = &e
		case "choices":
			dst = &choices
		case "model":
			dst = &model
		case "usage":
			dst = &usage
		}
		if dst != nil && !dst.Exists() {
			*dst = v
		}
		return true
	})
	if e.Exists() && e.Type != gjson.Null {
		msg := e.Get("message").String()
		if msg == "" {
			msg = e.Raw
		}
		return LLMResponse{}, fmt.Errorf("core: provider error: %s", msg)
	}
	choice := choices.Get("0")
	if !choice.Exists() {
		return LLMResponse{}, fmt.Errorf("core: provider reply has no choices")
	}
	// The choice, its message and the usage are small: path lookups in
	// them cost little.
	msg := choice.Get("message")
	if !msg.IsObject() {
		return LLMResponse{}, fmt.Errorf("core: provider reply has no message in choices[0]")
	}
	r := LLMResponse{
		Text:         msg.Get("content").String(),
		Model:        model.String(),
		FinishReason: choice.Get("finish_reason").String(),
		Usage: Usage{
			PromptTokens:     int(usage.Get("prompt_tokens").Int()),
			CompletionTokens: int(usage.Get("completion_tokens").Int()),
			TotalTokens:      int(usage.Get("total_tokens").Int()),
		},
	}
	calls := msg.Get("tool_calls")
	for i, tc := range calls.Array() {
		args := tc.Get("function.arguments")
		call := ToolCall{ID: tc.Get("id").String(), Name: tc.Get("function.name").String()}
		if args.Type == gjson.String {
			call.Arguments = args.String()
		} else if args.Exists() {
			call.Arguments = args.Raw // some servers send an object
		}
		if call.ID == "" {
			call.ID = "call_" + strconv.Itoa(i) + "_" + tool.NewID("")
		}
		r.ToolCalls = append(r.ToolCalls, call)
	}
	return r, nil
}

func (OpenAI) UserMessage(text string) json.RawMessage {
	b := append([]byte(`{"role":"user","content":`), nil...)
	b = jsonx.AppendString(b, text)
	return append(b, '}')
}

// AssistantMessage is always rebuilt from the parsed reply: providers add
// fields (refusal, annotations, audio) that other OpenAI-style servers reject.
func (OpenAI) AssistantMessage(r LLMResponse) json.RawMessage {
	b := []byte(`{"role":"assistant","content":`)
	if r.Text == "" && len(r.ToolCalls) > 0 {
		b = append(b, "null"...)
	} else {
		b = jsonx.AppendString(b, r.Text)
	}
	if len(r.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, tc := range r.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = jsonx.AppendString(b, tc.ID)
			b = append(b, `,"type":"function","function":{"name":`...)
			b = jsonx.AppendString(b, tc.Name)
			b = append(b, `,"arguments":`...)
			b = jsonx.AppendString(b, tc.Arguments)
			b = append(b, "}}"...)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (OpenAI) ToolResults(results []ToolOutcome) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(results))
	for _, r := range results {
		b := []byte(`{"role":"tool","tool_call_id":`)
		b = jsonx.AppendString(b, r.ID)
		b = append(b, `,"content":`...)
		b = jsonx.AppendString(b, r.Content)
		out = append(out, append(b, '}'))
	}
	return out
}

func (OpenAI) HaltedTurn(msgs []json.RawMessage) (int, []ToolCall, map[string]ToolOutcome) {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := gjson.ParseBytes(msgs[i])
		if m.Get("role").String() != "assistant" {
			continue
		}
		tcs := m.Get("tool_calls").Array()
		if len(tcs) == 0 {
			return -1, nil, nil
		}
		calls := make([]ToolCall, 0, len(tcs))
		for _, tc := range tcs {
			calls = append(calls, ToolCall{ID: tc.Get("id").String(), Name: tc.Get("function.name").String(), Arguments: tc.Get("function.arguments").String()})
		}
		results := map[string]ToolOutcome{}
		for _, raw := range msgs[i+1:] {
			t := gjson.ParseBytes(raw)
			if t.Get("role").String() == "tool" {
				id := t.Get("tool_call_id").String()
				results[id] = ToolOutcome{ID: id, Content: t.Get("content").String()}
			}
		}
		return i, calls, results
	}
	return -1, nil, nil
}
