package worker

import (
	"strconv"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// appendRunResponse writes out as JSON by hand, with the keys, order and
// omissions of its struct tags, compacted (jsonx by reflection, then
// compactJSON over the whole text, wrote the same; a test holds them
// equal). A run's answer is the largest thing most requests encode; on
// Workers the reflection and the second pass took a tenth of a run's Go
// work. Only the raw JSON it copies (messages, arguments) can hold space
// to remove: each part is checked (jsonx.Append) and compacted on its own.
func appendRunResponse(b []byte, out RunResponse) ([]byte, error) {
	r := &out.RunResult
	var err error
	b = append(b, `{"text":`...)
	b = jsonx.AppendString(b, r.Text)
	b = append(b, `,"messages":`...)
	if r.Messages == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, m := range r.Messages {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendCompact(b, m); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"toolCalls":`...)
	if r.ToolCalls == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendToolCall(b, &r.ToolCalls[i]); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"toolCallCount":`...)
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
	b = jsonx.AppendString(b, r.Model)
	if r.ProviderModel != "" {
		b = append(b, `,"providerModel":`...)
		b = jsonx.AppendString(b, r.ProviderModel)
	}
	b = append(b, `,"status":`...)
	b = jsonx.AppendString(b, r.Status)
	if r.Limit != "" {
		b = append(b, `,"limit":`...)
		b = jsonx.AppendString(b, r.Limit)
	}
	if r.Pending != nil {
		b = append(b, `,"pending":`...)
		if b, err = appendCompact(b, r.Pending); err != nil {
			return nil, err
		}
	}
	if len(r.Decisions) > 0 {
		b = append(b, `,"decisions":`...)
		if b, err = appendCompact(b, r.Decisions); err != nil {
			return nil, err
		}
	}
	if out.State != "" {
		b = append(b, `,"state":`...)
		b = jsonx.AppendString(b, out.State)
	}
	if out.StateExpiresAt != "" {
		b = append(b, `,"stateExpiresAt":`...)
		b = jsonx.AppendString(b, out.StateExpiresAt)
	}
	if out.DecisionsHead != "" {
		b = append(b, `,"decisionsHead":`...)
		b = jsonx.AppendString(b, out.DecisionsHead)
	}
	return append(b, '}'), nil
}

// appendToolCall writes one core.ToolCall as its struct tags say.
func appendToolCall(b []byte, tc *core.ToolCall) ([]byte, error) {
	var err error
	b = append(b, `{"id":`...)
	b = jsonx.AppendString(b, tc.ID)
	b = append(b, `,"name":`...)
	b = jsonx.AppendString(b, tc.Name)
	b = append(b, `,"args":`...)
	if b, err = appendCompact(b, tc.RawArgs); err != nil {
		return nil, err
	}
	if len(tc.OriginalArgs) > 0 {
		b = append(b, `,"originalArgs":`...)
		if b, err = appendCompact(b, tc.OriginalArgs); err != nil {
			return nil, err
		}
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
	return append(b, '}'), nil
}

// appendCompact is jsonx.Append of v with the space outside its strings
// removed (compactJSON).
func appendCompact(b []byte, v any) ([]byte, error) {
	start := len(b)
	b, err := jsonx.Append(b, v)
	if err != nil {
		return nil, err
	}
	part := compactJSON(b[start:])
	return append(b[:start], part...), nil
}
