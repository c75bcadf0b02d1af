package journal

import (
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strconv"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Entries travel as JSON text: the Worker's Durable Object and the tab's
// IndexedDB keep them so. AppendJSON writes by hand, not by reflection:
// every step of a journaled run encodes one entry, and the raw parts (the
// reply, arguments) are core's own valid JSON, which a reflecting encoder
// would validate again on each write.

// AppendJSON appends e as one JSON object.
func (e Entry) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"kind":`...)
	dst = jsonx.AppendString(dst, e.Kind)
	dst = appendInt(dst, "at", e.At)
	dst = appendInt(dst, "turn", int64(e.Turn))
	dst = appendStr(dst, "call", e.Call)
	dst = appendInt(dst, "attempt", int64(e.Attempt))
	dst = appendStr(dst, "run", e.Run)
	dst = appendStr(dst, "prompt", e.Prompt)
	if e.History != nil {
		dst = append(dst, `,"history":[`...)
		for i, m := range e.History {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, m...)
		}
		dst = append(dst, ']')
	}
	dst = appendRaw(dst, "meta", e.Meta)
	if e.Request != nil {
		b, err := jsonx.Marshal(e.Request)
		if err != nil {
			return nil, fmt.Errorf("journal: request: %w", err)
		}
		dst = appendRaw(dst, "request", b)
	}
	dst = appendRaw(dst, "message", e.Message)
	dst = appendStr(dst, "text", e.Text)
	if e.Calls != nil {
		dst = append(dst, `,"calls":[`...)
		for i, c := range e.Calls {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"id":`...)
			dst = jsonx.AppendString(dst, c.ID)
			dst = append(dst, `,"name":`...)
			dst = jsonx.AppendString(dst, c.Name)
			dst = append(dst, `,"arguments":`...)
			dst = jsonx.AppendString(dst, c.Arguments)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if u := e.Usage; u != nil {
		dst = append(dst, `,"usage":{"promptTokens":`...)
		dst = strconv.AppendInt(dst, int64(u.PromptTokens), 10)
		dst = append(dst, `,"completionTokens":`...)
		dst = strconv.AppendInt(dst, int64(u.CompletionTokens), 10)
		dst = append(dst, `,"totalTokens":`...)
		dst = strconv.AppendInt(dst, int64(u.TotalTokens), 10)
		dst = append(dst, '}')
	}
	dst = appendStr(dst, "model", e.Model)
	dst = appendStr(dst, "name", e.Name)
	dst = appendRaw(dst, "args", e.Args)
	dst = appendRaw(dst, "asked", e.Asked)
	dst = appendStr(dst, "idempotencyKey", e.IdempotencyKey)
	dst = appendStr(dst, "output", e.Output)
	dst = appendBool(dst, "isError", e.IsError)
	dst = appendBool(dst, "declined", e.Declined)
	dst = appendBool(dst, "recorded", e.Recorded)
	dst = appendRaw(dst, "metadata", e.Metadata)
	if e.Answer != nil {
		b, err := jsonx.Marshal(e.Answer)
		if err != nil {
			return nil, fmt.Errorf("journal: answer: %w", err)
		}
		dst = appendRaw(dst, "answer", b)
	}
	dst = appendStr(dst, "by", e.By)
	dst = appendRaw(dst, "decision", e.Decision)
	dst = appendStr(dst, "status", e.Status)
	dst = appendStr(dst, "limit", e.Limit)
	dst = appendStr(dst, "error", e.Error)
	return append(dst, '}'), nil
}

// MarshalJSON is AppendJSON, for encoders that ask.
func (e Entry) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

func appendStr(dst []byte, key, v string) []byte {
	if v == "" {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return jsonx.AppendString(dst, v)
}

func appendInt(dst []byte, key string, v int64) []byte {
	if v == 0 {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return strconv.AppendInt(dst, v, 10)
}

func appendBool(dst []byte, key string, v bool) []byte {
	if !v {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	return append(dst, `":true`...)
}

func appendRaw(dst []byte, key string, v []byte) []byte {
	if len(v) == 0 {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return append(dst, v...)
}

// Decode reads one entry's JSON text. Text that is not an entry (bad JSON,
// nested too deep, a field of the wrong type, no kind) is an error that
// says so: a journal read back from storage is checked, never trusted to
// be well-formed.
func Decode(text []byte) (Entry, error) {
	if err := jsonx.Check(text); err != nil {
		return Entry{}, fmt.Errorf("journal: entry: %w", err)
	}
	doc := gjson.ParseBytes(text)
	var e Entry
	err := jsonx.ReadObject(doc, "entry", false,
		jsonx.Field{Name: "kind", Read: jsonx.String(&e.Kind)},
		jsonx.Field{Name: "at", Read: jsonx.Int64(&e.At)},
		jsonx.Field{Name: "turn", Read: jsonx.Int(&e.Turn)},
		jsonx.Field{Name: "call", Read: jsonx.String(&e.Call)},
		jsonx.Field{Name: "attempt", Read: jsonx.Int(&e.Attempt)},
		jsonx.Field{Name: "run", Read: jsonx.String(&e.Run)},
		jsonx.Field{Name: "prompt", Read: jsonx.String(&e.Prompt)},
		jsonx.Field{Name: "history", Read: rawObjects(&e.History)},
		jsonx.Field{Name: "meta", Read: raw(&e.Meta)},
		jsonx.Field{Name: "request", Read: request(&e.Request)},
		jsonx.Field{Name: "message", Read: raw(&e.Message)},
		jsonx.Field{Name: "text", Read: jsonx.String(&e.Text)},
		jsonx.Field{Name: "calls", Read: calls(&e.Calls)},
		jsonx.Field{Name: "usage", Read: usage(&e.Usage)},
		jsonx.Field{Name: "model", Read: jsonx.String(&e.Model)},
		jsonx.Field{Name: "name", Read: jsonx.String(&e.Name)},
		jsonx.Field{Name: "args", Read: raw(&e.Args)},
		jsonx.Field{Name: "asked", Read: raw(&e.Asked)},
		jsonx.Field{Name: "idempotencyKey", Read: jsonx.String(&e.IdempotencyKey)},
		jsonx.Field{Name: "output", Read: jsonx.String(&e.Output)},
		jsonx.Field{Name: "isError", Read: jsonx.Bool(&e.IsError)},
		jsonx.Field{Name: "declined", Read: jsonx.Bool(&e.Declined)},
		jsonx.Field{Name: "recorded", Read: jsonx.Bool(&e.Recorded)},
		jsonx.Field{Name: "metadata", Read: raw(&e.Metadata)},
		jsonx.Field{Name: "answer", Read: answer(&e.Answer)},
		jsonx.Field{Name: "by", Read: jsonx.String(&e.By)},
		jsonx.Field{Name: "decision", Read: raw(&e.Decision)},
		jsonx.Field{Name: "status", Read: jsonx.String(&e.Status)},
		jsonx.Field{Name: "limit", Read: jsonx.String(&e.Limit)},
		jsonx.Field{Name: "error", Read: jsonx.String(&e.Error)},
	)
	if err != nil {
		return Entry{}, fmt.Errorf("journal: %w", err)
	}
	if e.Kind == "" {
		return Entry{}, errors.New(`journal: entry has no "kind"`)
	}
	return e, nil
}

// DecodeAll decodes entries kept as JSON texts, naming the first bad one.
func DecodeAll(texts [][]byte) ([]Entry, error) {
	out := make([]Entry, len(texts))
	for i, t := range texts {
		e, err := Decode(t)
		if err != nil {
			return nil, fmt.Errorf("journal entry %d: %w", i+1, err)
		}
		out[i] = e
	}
	return out, nil
}

func raw(dst *json.RawMessage) jsonx.Reader {
	return func(v gjson.Result, _ string) error {
		*dst = json.RawMessage(v.Raw)
		return nil
	}
}

func rawObjects(dst *[]json.RawMessage) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		if err := jsonx.RawList(dst)(v, path); err != nil {
			return err
		}
		for i, m := range *dst {
			if len(m) == 0 || m[0] != '{' {
				return &jsonx.FieldError{Path: path + "." + strconv.Itoa(i), Problem: "must be an object"}
			}
		}
		return nil
	}
}

func request(dst **tool.Request) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		var r tool.Request
		if err := r.UnmarshalJSON([]byte(v.Raw)); err != nil {
			return &jsonx.FieldError{Path: path, Problem: err.Error()}
		}
		*dst = &r
		return nil
	}
}

func answer(dst **tool.Answer) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		var a tool.Answer
		if err := a.UnmarshalJSON([]byte(v.Raw)); err != nil {
			return &jsonx.FieldError{Path: path, Problem: err.Error()}
		}
		*dst = &a
		return nil
	}
}

func calls(dst *[]wire.ToolCall) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		if !v.IsArray() {
			return &jsonx.FieldError{Path: path, Problem: "must be an array"}
		}
		list := []wire.ToolCall{}
		var err error
		i := 0
		v.ForEach(func(_, c gjson.Result) bool {
			var tc wire.ToolCall
			err = jsonx.ReadObject(c, path+"."+strconv.Itoa(i), false,
				jsonx.Field{Name: "id", Read: jsonx.String(&tc.ID)},
				jsonx.Field{Name: "name", Read: jsonx.String(&tc.Name)},
				jsonx.Field{Name: "arguments", Read: jsonx.String(&tc.Arguments)})
			list = append(list, tc)
			i++
			return err == nil
		})
		*dst = list
		return err
	}
}

func usage(dst **wire.Usage) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		var u wire.Usage
		if err := jsonx.ReadObject(v, path, false,
			jsonx.Field{Name: "promptTokens", Read: jsonx.Int(&u.PromptTokens)},
			jsonx.Field{Name: "completionTokens", Read: jsonx.Int(&u.CompletionTokens)},
			jsonx.Field{Name: "totalTokens", Read: jsonx.Int(&u.TotalTokens)}); err != nil {
			return err
		}
		*dst = &u
		return nil
	}
}
