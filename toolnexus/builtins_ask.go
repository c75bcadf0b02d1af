package toolnexus

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// askTool is the question built-in. Its first call suspends with a Request
// of kind "question" whose Data["questions"] is the model's list as given
// and whose Prompt has one line per question (its options in brackets).
// When the host has answered, the tool runs again and returns the answer's
// Data as JSON, untouched ("{}" when the answer carried none).
func askTool() Tool {
	item := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"question": prop("string", "What to ask"),
			"header":   prop("string", "A short title for the question"),
			"options":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "The choices, when there is a fixed set"},
			"multiple": prop("boolean", "Whether more than one option may be picked"),
		},
		"required": []string{"question"},
	}
	return hostTool("question",
		"Ask the user one or more questions and wait for the answers.",
		objectSchema(map[string]any{
			"questions": map[string]any{"type": "array", "items": item, "description": "The questions, in order"},
		}, "questions"),
		func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
			if tctx != nil && tctx.Answer != nil {
				data := tctx.Answer.Data
				if data == nil {
					data = map[string]any{}
				}
				b, err := json.Marshal(data)
				if err != nil {
					return ToolResult{}, err
				}
				return ToolResult{Output: string(b)}, nil
			}
			list, err := questionList(args["questions"])
			if err != nil {
				return ToolResult{}, err
			}
			lines := make([]string, len(list))
			for i, q := range list {
				m, _ := q.(map[string]any)
				text, _ := m["question"].(string)
				if opts := optionTexts(m["options"]); len(opts) > 0 {
					text += " (options: " + strings.Join(opts, ", ") + ")"
				}
				lines[i] = text
			}
			return Pending(Request{Kind: KindQuestion, Prompt: strings.Join(lines, "\n"), Data: map[string]any{"questions": args["questions"]}}), nil
		})
}

// questionList checks v is a non-empty list of objects with a question.
func questionList(v any) ([]any, error) {
	var list []any
	switch l := v.(type) {
	case []any:
		list = l
	case []map[string]any:
		for _, m := range l {
			list = append(list, m)
		}
	}
	if len(list) == 0 {
		return nil, errors.New("questions must be a non-empty array")
	}
	for i, q := range list {
		m, ok := q.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("questions[%d] must be an object", i)
		}
		if s, _ := m["question"].(string); strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("questions[%d].question must be a non-empty string", i)
		}
	}
	return list, nil
}

// optionTexts is a question's options as text.
func optionTexts(v any) []string {
	var out []string
	switch l := v.(type) {
	case []string:
		out = l
	case []any:
		for _, o := range l {
			if s, ok := o.(string); ok {
				out = append(out, s)
			} else {
				out = append(out, fmt.Sprint(o))
			}
		}
	}
	return out
}
