package builtins

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
	"sync"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// questionTool asks the person. Its first call suspends with a Request of
// kind "question" whose Data["questions"] is the list of
// {question, header?, options?, multiple?}. The host (a dialog) answers with
// an Ok Answer whose Data["answers"] holds one entry per question: a string,
// or a list of strings for a multiple-choice one. Data["output"] (as from
// AnswerOutput) is taken as the whole answer. The tool then runs again and
// returns the answers to the model.
func questionTool() tool.Tool {
	return builtin("question",
		"Ask the person one or more questions and wait for the answers. Give options when there is a fixed set of choices; multiple allows more than one.",
		tool.ObjectSchema(`{"questions": {"type": "array", "description": "The questions, in order", "items": {
			"type": "object",
			"properties": {
				"question": {"type": "string"},
				"header":   {"type": "string"},
				"options":  {"type": "array", "items": {"type": "string"}},
				"multiple": {"type": "boolean"}
			},
			"required": ["question"]
		}}}`, "questions"),
		func(args map[string]any, tctx *tool.ToolContext) (tool.ToolResult, error) {
			qs, err := questionsOf(args["questions"])
			if err != nil {
				return tool.ToolResult{}, err
			}
			if tctx != nil && tctx.Answer != nil {
				return tool.ToolResult{Output: renderAnswers(qs, tctx.Answer.Data), Metadata: map[string]any{"answers": tctx.Answer.Data["answers"]}}, nil
			}
			prompts := make([]string, len(qs))
			list := make([]any, len(qs))
			for i, q := range qs {
				prompts[i] = q.text
				if len(q.options) > 0 {
					// Worded as the Go port words it.
					prompts[i] += " (options: " + strings.Join(q.options, ", ") + ")"
				}
				list[i] = q.raw
			}
			return tool.Pending(tool.Request{Kind: tool.KindQuestion, Prompt: strings.Join(prompts, "\n"), Data: map[string]any{"questions": list}}), nil
		})
}

type question struct {
	text     string
	options  []string
	multiple bool
	raw      map[string]any
}

func questionsOf(v any) ([]question, error) {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil, errors.New("questions must be a non-empty array")
	}
	out := make([]question, 0, len(arr))
	for i, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("questions[%d] must be an object", i)
		}
		q := question{raw: map[string]any{}}
		if q.text, ok = m["question"].(string); !ok || strings.TrimSpace(q.text) == "" {
			return nil, fmt.Errorf("questions[%d].question must be a non-empty string", i)
		}
		q.raw["question"] = q.text
		if h, ok := m["header"].(string); ok && h != "" {
			q.raw["header"] = h
		}
		if opts, ok := m["options"].([]any); ok && len(opts) > 0 {
			list := make([]any, 0, len(opts))
			for _, o := range opts {
				s := jsonx.Text(o)
				q.options = append(q.options, s)
				list = append(list, s)
			}
			q.raw["options"] = list
		}
		if mu, ok := m["multiple"].(bool); ok && mu {
			q.multiple = true
			q.raw["multiple"] = true
		}
		out = append(out, q)
	}
	return out, nil
}

// renderAnswers writes one "question: answer" line per question.
func renderAnswers(qs []question, data map[string]any) string {
	answers, _ := data["answers"].([]any)
	if answers == nil {
		if out, ok := data["output"]; ok {
			return jsonx.Text(out)
		}
	}
	var b strings.Builder
	for i, q := range qs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(q.text)
		b.WriteString("\n→ ")
		if i >= len(answers) || answers[i] == nil {
			b.WriteString("(no answer)")
			continue
		}
		switch a := answers[i].(type) {
		case []any:
			parts := make([]string, len(a))
			for j, x := range a {
				parts[j] = jsonx.Text(x)
			}
			b.WriteString(strings.Join(parts, ", "))
		default:
			b.WriteString(jsonx.Text(a))
		}
	}
	return b.String()
}

// todowriteTool keeps the toolkit's todo list: each call replaces the whole
// list and returns it rendered as a checklist.
func todowriteTool() tool.Tool {
	var mu sync.Mutex
	var todos []any
	return builtin("todowrite",
		"Replace the session's todo list with the one given (send the whole list each time) and get it back as a checklist.",
		tool.ObjectSchema(`{"todos": {"type": "array", "description": "The whole todo list", "items": {
			"type": "object",
			"properties": {
				"id":        {"type": "string"},
				"text":      {"type": "string"},
				"completed": {"type": "boolean"}
			},
			"required": ["id", "text", "completed"]
		}}}`, "todos"),
		func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			arr, ok := args["todos"].([]any)
			if !ok {
				return tool.ToolResult{}, errors.New("todos must be an array")
			}
			var lines []string
			clean := make([]any, 0, len(arr))
			done := 0
			for i, e := range arr {
				m, ok := e.(map[string]any)
				if !ok {
					return tool.ToolResult{}, fmt.Errorf("todos[%d] must be an object", i)
				}
				text, _ := m["text"].(string)
				completed, _ := m["completed"].(bool)
				box := "[ ]"
				if completed {
					box = "[x]"
					done++
				}
				lines = append(lines, box+" "+text)
				clean = append(clean, map[string]any{"id": jsonx.Text(m["id"]), "text": text, "completed": completed})
			}
			mu.Lock()
			previous := len(todos)
			todos = clean
			mu.Unlock()
			out := "(no todos)"
			if len(lines) > 0 {
				out = strings.Join(lines, "\n") + fmt.Sprintf("\n(%d of %d done)", done, len(lines))
			}
			return tool.ToolResult{Output: out, Metadata: map[string]any{"todos": clean, "previous": previous}}, nil
		})
}
