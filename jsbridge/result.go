//go:build js && wasm

package jsbridge

import (
	"encoding/json"
	"strconv"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// appendRunResult writes a RunResult as JSON by hand, with the same keys as
// core's struct tags. The transcript's messages are raw JSON already and are
// copied, not re-encoded: encoding/json would validate and compact every
// message of a long history on each run.
//
// Without withMessages the "messages" key is left out: a conversation keeps
// its transcript in Go and hands it over only when asked (conversation.go).
func appendRunResult(b []byte, r core.RunResult, withMessages bool) ([]byte, error) {
	b = append(b, `{"text":`...)
	b = jsonx.AppendString(b, r.Text)
	if withMessages {
		b = append(b, `,"messages":`...)
		var err error
		if b, err = appendMessages(b, r.Messages); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"toolCalls":[`...)
	for i, tc := range r.ToolCalls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = jsonx.AppendString(b, tc.ID)
		b = append(b, `,"name":`...)
		b = jsonx.AppendString(b, tc.Name)
		b = append(b, `,"args":`...)
		if len(tc.RawArgs) == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, tc.RawArgs...)
		}
		if len(tc.OriginalArgs) > 0 {
			b = append(b, `,"originalArgs":`...)
			b = append(b, tc.OriginalArgs...)
		}
		b = append(b, `,"output":`...)
		b = jsonx.AppendString(b, tc.Output)
		b = append(b, `,"isError":`...)
		b = strconv.AppendBool(b, tc.IsError)
		if tc.Edited {
			b = append(b, `,"edited":true`...)
		}
		if tc.Declined {
			b = append(b, `,"declined":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, `],"toolCallCount":`...)
	b = strconv.AppendInt(b, int64(r.ToolCallCount), 10)
	b = append(b, `,"turns":`...)
	b = strconv.AppendInt(b, int64(r.Turns), 10)
	b = append(b, `,"usage":{"promptTokens":`...)
	b = strconv.AppendInt(b, int64(r.Usage.PromptTokens), 10)
	b = append(b, `,"completionTokens":`...)
	b = strconv.AppendInt(b, int64(r.Usage.CompletionTokens), 10)
	b = append(b, `,"totalTokens":`...)
	b = strconv.AppendInt(b, int64(r.Usage.TotalTokens), 10)
	b = append(b, `},"model":`...)
	// JS hosts have always read the provider's model here when it named one.
	model := r.ProviderModel
	if model == "" {
		model = r.Model
	}
	b = jsonx.AppendString(b, model)
	b = append(b, `,"status":`...)
	b = jsonx.AppendString(b, r.Status)
	if r.Limit != "" {
		b = append(b, `,"limit":`...)
		b = jsonx.AppendString(b, r.Limit)
	}
	if r.Pending != nil {
		b = append(b, `,"pending":`...)
		var err error
		if b, err = jsonx.Append(b, *r.Pending); err != nil {
			return nil, err
		}
	}
	if len(r.Decisions) > 0 {
		// The run's decisions as made; the toolkit's record chains them
		// (tk.decisions()).
		b = append(b, `,"decisions":[`...)
		for i, d := range r.Decisions {
			if i > 0 {
				b = append(b, ',')
			}
			b = d.AppendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// appendMessages writes a transcript as a JSON array, copying raw messages.
func appendMessages(b []byte, msgs []any) ([]byte, error) {
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if raw, ok := m.(json.RawMessage); ok {
			b = append(b, raw...)
		} else if raw, ok := m.(jsonx.Checked); ok {
			b = append(b, raw...)
		} else if b, err = jsonx.Append(b, m); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}
