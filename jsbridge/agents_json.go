//go:build js && wasm

package jsbridge

import (
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// The agents' results, rows and events cross as JSON text with core/agents'
// own JSON keys (the Worker's binding hands over the same shapes).

// taskResultJSON: {status, text, isError?, limit?, pending?, turns, totalTokens}.
func taskResultJSON(r agents.TaskResult) string {
	return marshal(r, `{"status":"error","text":"the result could not be encoded","isError":true}`)
}

// postResultJSON: {ok, error?}.
func postResultJSON(r agents.PostResult) string { return marshal(r, `{"ok":false,"error":"encode"}`) }

// viewsJSON: [{id, agent, path, state, tokens, turns, inbox, pendingKind?}].
func viewsJSON(views []agents.HandleView) string {
	if views == nil {
		views = []agents.HandleView{}
	}
	for i := range views {
		if views[i].Path == nil {
			views[i].Path = []string{}
		}
	}
	return marshal(views, "[]")
}

// eventJSON: {type, handle, path, state, result?, request?}; the root's
// own events have an empty path.
func eventJSON(e agents.Event) string {
	if e.Path == nil {
		e.Path = []string{}
	}
	return marshal(e, `{"type":"error"}`)
}

// marshal encodes v, or returns fallback (v holds only what the runtime
// made: plain values and Requests, which always encode).
func marshal(v any, fallback string) string {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return fallback
	}
	return string(b)
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
	b = append(b, `,"path":`...)
	p, err := jsonx.Marshal(path)
	if err != nil || path == nil {
		p = []byte("[]")
	}
	b = append(b, p...)
	return string(append(b, '}'))
}
