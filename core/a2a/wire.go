package a2a

import (
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// task is what a tool reads of an A2A Task, or of the Message an agent
// answered a SendMessage with at once (a task that is completed on
// arrival). It reads A2A 1.0's JSON ({"text"} parts, TASK_STATE_*,
// ROLE_AGENT) and 0.3's ({"kind":"text"} parts, "completed", "agent").
type task struct {
	id, contextID string
	state         string // NormalizeState's words
	// status is the text of the status message (what a failed task says,
	// what an interrupted one asks); url the first link in it.
	status, url string
	// output is the text of the artifacts, else of the last agent message.
	output string
}

// readSendResult reads SendMessage's result: 1.0's {"task": …} or
// {"message": …}, or 0.3's (and the Go port's) Task or Message itself.
func readSendResult(r gjson.Result) task {
	switch {
	case r.Get("task").IsObject():
		return readTask(r.Get("task"))
	case r.Get("message").IsObject():
		return readMessage(r.Get("message"))
	case r.Get("kind").String() == "message" || (!r.Get("status").Exists() && r.Get("parts").Exists()):
		return readMessage(r)
	}
	return readTask(r)
}

func readMessage(m gjson.Result) task {
	text, _ := partsText(m.Get("parts"))
	return task{id: m.Get("taskId").String(), contextID: m.Get("contextId").String(), state: StateCompleted, output: text}
}

func readTask(t gjson.Result) task {
	out := task{id: t.Get("id").String(), contextID: t.Get("contextId").String(), state: NormalizeState(t.Get("status.state").String())}
	out.status, out.url = partsText(t.Get("status.message.parts"))
	var texts []string
	t.Get("artifacts").ForEach(func(_, a gjson.Result) bool {
		if s, _ := partsText(a.Get("parts")); s != "" {
			texts = append(texts, s)
		}
		return true
	})
	out.output = strings.Join(texts, "\n")
	if out.output == "" {
		// No artifact text: the last agent message of the history, as the
		// Go port reads a task.
		h := t.Get("history").Array()
		for i := len(h) - 1; i >= 0; i-- {
			if role := h[i].Get("role").String(); role != "agent" && role != "ROLE_AGENT" {
				continue
			}
			if s, _ := partsText(h[i].Get("parts")); s != "" {
				out.output = s
				break
			}
		}
	}
	return out
}

// partsText joins the text parts (else the JSON of the data parts) with
// newlines, and finds the first link: a url part (1.0), a file's uri
// (0.3), a data part's "url", or an http(s) address in the text.
func partsText(parts gjson.Result) (text, url string) {
	var texts, data []string
	parts.ForEach(func(_, p gjson.Result) bool {
		kind := p.Get("kind").String()
		switch t := p.Get("text"); {
		case t.Type == gjson.String && (kind == "" || kind == "text"):
			texts = append(texts, t.String())
		case p.Get("data").IsObject() && (kind == "" || kind == "data"):
			data = append(data, p.Get("data").Raw)
			if u := p.Get("data.url").String(); url == "" && tool.IsHTTPURL(u) {
				url = u
			}
		}
		for _, u := range []string{p.Get("url").String(), p.Get("file.uri").String()} {
			if url == "" && tool.IsHTTPURL(u) {
				url = u
			}
		}
		return true
	})
	text = strings.Join(texts, "\n")
	if text == "" {
		text = strings.Join(data, "\n")
	}
	if url == "" {
		url = firstLink(text)
	}
	return text, url
}

// firstLink returns the first http(s) address in s, up to a space or a
// closing bracket or quote.
func firstLink(s string) string {
	for _, scheme := range []string{"https://", "http://"} {
		if i := strings.Index(s, scheme); i >= 0 {
			end := strings.IndexAny(s[i:], " \t\r\n\"'<>)]}")
			if end < 0 {
				end = len(s) - i
			}
			if u := strings.TrimRight(s[i:i+end], ".,;:!?"); tool.IsHTTPURL(u) {
				return u
			}
		}
	}
	return ""
}

// appendMessage writes a user message to the agent: a text part, a data
// part when data is given, the task it continues when taskID is set, and
// the skill it is for as its metadata ("skill"), which an agent that serves
// several (the toolnexus Worker's team) reads and others ignore. Parts
// carry 0.3's "kind" too, which 1.0 ignores and the Go port's server needs
// to read the text.
func appendMessage(dst []byte, text string, data map[string]any, taskID, skill string) ([]byte, error) {
	dst = append(dst, `{"messageId":`...)
	dst = jsonx.AppendString(dst, tool.NewID("msg-"))
	dst = append(dst, `,"role":"ROLE_USER","parts":[{"kind":"text","text":`...)
	dst = jsonx.AppendString(dst, text)
	dst = append(dst, '}')
	if data != nil {
		dst = append(dst, `,{"kind":"data","data":`...)
		var err error
		if dst, err = jsonx.Append(dst, data); err != nil {
			return nil, err
		}
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	if taskID != "" {
		dst = append(dst, `,"taskId":`...)
		dst = jsonx.AppendString(dst, taskID)
	}
	if skill != "" {
		dst = append(dst, `,"metadata":{"skill":`...)
		dst = append(jsonx.AppendString(dst, skill), '}')
	}
	return append(dst, '}'), nil
}
