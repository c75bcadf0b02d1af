package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Hooks are the Go port's lifecycle callbacks around the loop
// (ClientOptions.Hooks). A nil Hooks, or a nil field, is skipped. Any hook
// that returns an error ends the run with that error (Status "incomplete",
// Limit "error"). The hooks of one turn's tool calls may run concurrently,
// as the calls do. They hand over Go values: a turn with BeforeLLM set
// decodes the transcript for it.
type Hooks struct {
	// BeforeLLM runs before each model call. A non-nil override replaces
	// the transcript and/or the tool list for the rest of the run, or the
	// model for this call only.
	BeforeLLM func(ctx context.Context, ev BeforeLLMEvent) (*LLMOverride, error)
	// AfterLLM runs after each model call, to observe it.
	AfterLLM func(ctx context.Context, ev AfterLLMEvent) error
	// BeforeTool runs before a tool: an override with Result set answers for
	// the tool (it does not run), one with Args set changes its arguments.
	BeforeTool func(ctx context.Context, ev core.BeforeToolEvent) (*core.ToolOverride, error)
	// AfterTool runs after a tool finished (not when it suspended): an
	// override with Result set replaces the result.
	AfterTool func(ctx context.Context, ev core.AfterToolEvent) (*core.ToolOverride, error)
}

// BeforeLLMEvent is what Hooks.BeforeLLM sees. Messages is the transcript in
// the provider's format, decoded (maps); the system prompt is sent apart,
// so it is not among them. Tools is the tool list in the provider's format.
// Turn counts model calls from 0.
type BeforeLLMEvent struct {
	Messages []any
	Tools    []any
	Model    string
	Turn     int
}

// AfterLLMEvent is what Hooks.AfterLLM sees: the provider's reply, decoded
// ({"streamed": true} for a streamed reply, which has no one body).
type AfterLLMEvent struct {
	Response map[string]any
	Model    string
	Turn     int
}

// LLMOverride is what Hooks.BeforeLLM may return. A nil slice leaves that
// part as it is; a non-nil one (even empty) replaces it. Model, when set, is
// sent for this call only.
type LLMOverride struct {
	Messages []any
	Tools    []any
	Model    string
}

// coreHooks is h as core's Hooks (nil for nil): the tool hooks are the
// same; the model-call hooks decode and encode around core's.
func coreHooks(h *Hooks) *core.Hooks {
	if h == nil {
		return nil
	}
	out := &core.Hooks{BeforeTool: h.BeforeTool, AfterTool: h.AfterTool}
	if f := h.BeforeLLM; f != nil {
		out.BeforeLLM = func(ctx context.Context, call *core.LLMCall) (*core.LLMResponse, error) {
			return nil, beforeLLM(ctx, f, call)
		}
	}
	if f := h.AfterLLM; f != nil {
		out.AfterLLM = func(ctx context.Context, call *core.LLMCall, _ *core.LLMResponse) error {
			ev := AfterLLMEvent{Model: call.Model, Turn: call.Turn}
			switch {
			case call.Streamed:
				ev.Response = map[string]any{"streamed": true}
			case call.Reply != nil:
				ev.Response, _ = jsonx.DecodeObject(call.Reply)
			}
			return f(ctx, ev)
		}
	}
	return out
}

func beforeLLM(ctx context.Context, f func(context.Context, BeforeLLMEvent) (*LLMOverride, error), call *core.LLMCall) error {
	msgs := make([]any, 0, len(call.Messages))
	for _, m := range call.Messages {
		v, err := jsonx.Decode(m)
		if err != nil {
			v = m
		}
		msgs = append(msgs, v)
	}
	tools := []any{}
	if len(call.Tools) > 0 {
		if v, _ := jsonx.Decode(call.Tools); v != nil {
			tools, _ = v.([]any)
		}
	}
	ov, err := f(ctx, BeforeLLMEvent{Messages: msgs, Tools: tools, Model: call.Model, Turn: call.Turn})
	if err != nil || ov == nil {
		return err
	}
	if ov.Messages != nil {
		enc := make([]json.RawMessage, 0, len(ov.Messages))
		for i, m := range ov.Messages {
			b, err := rawJSON(m)
			if err != nil {
				return fmt.Errorf("core: BeforeLLM hook: messages[%d]: %w", i, err)
			}
			enc = append(enc, b)
		}
		call.Messages = enc
	}
	if ov.Tools != nil {
		b, err := jsonx.Marshal(ov.Tools)
		if err != nil {
			return fmt.Errorf("core: BeforeLLM hook: tools: %w", err)
		}
		call.Tools = b
	}
	if ov.Model != "" {
		call.Model = ov.Model
	}
	return nil
}

// rawJSON keeps JSON text as it is and encodes any other value.
func rawJSON(v any) (json.RawMessage, error) {
	switch m := v.(type) {
	case json.RawMessage:
		return m, nil
	case []byte:
		return m, nil
	}
	return jsonx.Marshal(v)
}
