package uiproto

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/wire"
)

// uiHistory turns the UI messages before a new turn into a transcript in
// the Worker's wire format, as /v1/run's "messages" would carry it (the
// client holds the conversation; like "messages", it is the caller's word):
//
//   - a user message: its text parts, joined, as one user message;
//   - an assistant message: per step (the parts between "step-start"
//     parts), its text and its finished tool calls as one assistant
//     message, then the calls' results. A call's result is its output
//     (text as is, anything else as JSON), its errorText, or for a denied
//     call the decline the model would have read. A call without a result
//     (never answered) is left out with its result.
//   - system messages are not sent: the Worker's SYSTEM_PROMPT rules.
//
// File, source, reasoning and data parts are not sent to the model.
func uiHistory(msgs []gjson.Result, format wire.Format) []any {
	var out []any
	for _, m := range msgs {
		switch m.Get("role").String() {
		case "user":
			if text := uiText(m); text != "" {
				out = append(out, format.UserMessage(text))
			}
		case "assistant":
			var step uiStepParts
			for _, p := range m.Get("parts").Array() {
				if p.Get("type").String() == "step-start" {
					out = step.flush(out, format)
					continue
				}
				step.add(p)
			}
			out = step.flush(out, format)
		}
	}
	return out
}

// uiStepParts collects one assistant step's text and finished calls.
type uiStepParts struct {
	text    strings.Builder
	calls   []wire.ToolCall
	results []wire.ToolOutcome
}

func (s *uiStepParts) add(p gjson.Result) {
	if p.Get("type").String() == "text" {
		s.text.WriteString(p.Get("text").String())
		return
	}
	if !isUIToolPart(p) {
		return
	}
	id := p.Get("toolCallId").String()
	res := wire.ToolOutcome{ID: id}
	switch p.Get("state").String() {
	case "output-available":
		if out := p.Get("output"); out.Type == gjson.String {
			res.Content = out.String()
		} else {
			res.Content = out.Raw
		}
	case "output-error":
		res.Content, res.IsError = p.Get("errorText").String(), true
	case "output-denied":
		reason := p.Get("approval.reason").String()
		if reason == "" {
			reason = "declined"
		}
		res.Content, res.IsError = fmt.Sprintf("tool %q was not run: declined: %s", uiToolName(p), reason), true
	default:
		return
	}
	args := p.Get("input").Raw
	if args == "" {
		args = "{}"
	}
	s.calls = append(s.calls, wire.ToolCall{ID: id, Name: uiToolName(p), Arguments: args})
	s.results = append(s.results, res)
}

// flush appends the step's messages to out and empties it.
func (s *uiStepParts) flush(out []any, format wire.Format) []any {
	if s.text.Len() > 0 || len(s.calls) > 0 {
		out = append(out, format.AssistantMessage(wire.LLMResponse{Text: s.text.String(), ToolCalls: s.calls}))
		for _, m := range format.ToolResults(s.results) {
			out = append(out, m)
		}
	}
	*s = uiStepParts{}
	return out
}

// uiText is a message's text parts, joined.
func uiText(m gjson.Result) string {
	var b strings.Builder
	for _, p := range m.Get("parts").Array() {
		if p.Get("type").String() == "text" {
			b.WriteString(p.Get("text").String())
		}
	}
	return b.String()
}

// isUIToolPart reports whether p is a tool part: "tool-<name>" (a static
// tool) or "dynamic-tool".
func isUIToolPart(p gjson.Result) bool {
	t := p.Get("type").String()
	return t == "dynamic-tool" || strings.HasPrefix(t, "tool-")
}

// uiToolName is a tool part's tool name.
func uiToolName(p gjson.Result) string {
	if t := p.Get("type").String(); t != "dynamic-tool" {
		return strings.TrimPrefix(t, "tool-")
	}
	return p.Get("toolName").String()
}
