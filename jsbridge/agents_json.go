//go:build js && wasm && toolnexus_tools

package jsbridge

import (
	"strconv"

	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// The agents' results, rows and events cross as JSON text written by hand
// with lower-camel keys (the Go types carry no JSON tags, and the browser
// build links no reflective encoder for structs of its own).

// taskResultJSON: {status, text, isError, limit?, pending?, turns, totalTokens}.
func taskResultJSON(r agents.TaskResult) string {
	return string(appendTaskResult(nil, r))
}

func appendTaskResult(b []byte, r agents.TaskResult) []byte {
	b = append(b, `{"status":`...)
	b = jsonx.AppendString(b, r.Status)
	b = append(b, `,"text":`...)
	b = jsonx.AppendString(b, r.Text)
	b = append(b, `,"isError":`...)
	b = strconv.AppendBool(b, r.IsError)
	if r.Limit != "" {
		b = append(b, `,"limit":`...)
		b = jsonx.AppendString(b, r.Limit)
	}
	if r.Pending != nil {
		if p, err := jsonx.Append(append(b, `,"pending":`...), *r.Pending); err == nil {
			b = p
		} else {
			b = append(b, `,"pending":null`...) // unreachable for a Request the runtime made
		}
	}
	b = append(b, `,"turns":`...)
	b = strconv.AppendInt(b, int64(r.Turns), 10)
	b = append(b, `,"totalTokens":`...)
	b = strconv.AppendInt(b, int64(r.TotalTokens), 10)
	return append(b, '}')
}

// postResultJSON: {ok, error?}.
func postResultJSON(r agents.PostResult) string {
	b := append([]byte(`{"ok":`), strconv.FormatBool(r.Ok)...)
	if r.Err != "" {
		b = append(b, `,"error":`...)
		b = jsonx.AppendString(b, r.Err)
	}
	return string(append(b, '}'))
}

// viewsJSON: [{id, agent, path, state, tokens, turns, inbox, pendingKind?}].
func viewsJSON(views []agents.HandleView) string {
	b := []byte{'['}
	for i, v := range views {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = jsonx.AppendString(b, v.ID)
		b = append(b, `,"agent":`...)
		b = jsonx.AppendString(b, v.Agent)
		b = appendPath(append(b, `,"path":`...), v.Path)
		b = append(b, `,"state":`...)
		b = jsonx.AppendString(b, string(v.State))
		b = append(b, `,"tokens":`...)
		b = strconv.AppendInt(b, int64(v.Tokens), 10)
		b = append(b, `,"turns":`...)
		b = strconv.AppendInt(b, int64(v.Turns), 10)
		b = append(b, `,"inbox":`...)
		b = strconv.AppendInt(b, int64(v.Inbox), 10)
		if v.PendingKind != "" {
			b = append(b, `,"pendingKind":`...)
			b = jsonx.AppendString(b, v.PendingKind)
		}
		b = append(b, '}')
	}
	return string(append(b, ']'))
}

// eventJSON: {type, handle, path, state, result?, request?}.
func eventJSON(e agents.Event) string {
	b := append([]byte(`{"type":`), jsonx.AppendString(nil, e.Type)...)
	b = append(b, `,"handle":`...)
	b = jsonx.AppendString(b, e.Handle)
	b = appendPath(append(b, `,"path":`...), e.Path)
	b = append(b, `,"state":`...)
	b = jsonx.AppendString(b, string(e.State))
	if e.Result != nil {
		b = appendTaskResult(append(b, `,"result":`...), *e.Result)
	}
	if e.Request != nil {
		if r, err := jsonx.Append(append(b, `,"request":`...), *e.Request); err == nil {
			b = r
		} else {
			b = append(b, `,"request":null`...)
		}
	}
	return string(append(b, '}'))
}

func appendPath(b []byte, path []string) []byte {
	b = append(b, '[')
	for i, p := range path {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, p)
	}
	return append(b, ']')
}

// labelled encodes one of core's events (a StreamEvent or a MetricEvent, as
// core's JSON tags spell it) with "handle" and "path" added.
func labelled(v any, handle string, path []string) string {
	b, err := jsonx.Marshal(v)
	if err != nil || len(b) < 2 || b[len(b)-1] != '}' {
		b = []byte("{}")
	}
	b = b[:len(b)-1]
	if len(b) > 1 {
		b = append(b, ',')
	}
	b = append(b, `"handle":`...)
	b = jsonx.AppendString(b, handle)
	b = appendPath(append(b, `,"path":`...), path)
	return string(append(b, '}'))
}
