package core

import "context"

// Hooks are the Go port's lifecycle callbacks around the loop
// (ClientOptions.Hooks). A nil Hooks, or a nil field, is skipped. Any hook
// that returns an error ends the run with that error (Status "incomplete",
// Limit "error"). The hooks of one turn's tool calls may run concurrently,
// as the calls do.
//
// They hand over Go values, so a turn with BeforeLLM set decodes the
// transcript once for it; RawHooks work on the encoded bytes instead.
type Hooks struct {
	// BeforeLLM runs before each model call. A non-nil override replaces
	// the transcript and/or the tool list for the rest of the run, or the
	// model for this call only.
	BeforeLLM func(ctx context.Context, ev BeforeLLMEvent) (*LLMOverride, error)
	// AfterLLM runs after each model call, to observe it.
	AfterLLM func(ctx context.Context, ev AfterLLMEvent) error
	// BeforeTool runs before a tool: an override with Result set answers for
	// the tool (it does not run), one with Args set changes its arguments.
	BeforeTool func(ctx context.Context, ev BeforeToolEvent) (*ToolOverride, error)
	// AfterTool runs after a tool finished (not when it suspended): an
	// override with Result set replaces the result.
	AfterTool func(ctx context.Context, ev AfterToolEvent) (*ToolOverride, error)
}

// BeforeLLMEvent is what Hooks.BeforeLLM sees. Messages is the transcript in
// the provider's format, decoded (maps); core sends the system prompt
// apart, so it is not among them. Tools is the tool list in the provider's
// format. Turn counts model calls from 0.
type BeforeLLMEvent struct {
	Messages []any
	Tools    []any
	Model    string
	Turn     int
}

// AfterLLMEvent is what Hooks.AfterLLM sees: the provider's reply, decoded
// ({"streamed": true} for a streamed reply, which has no one body; nil when
// a RawHooks.BeforeLLM answered instead of the provider).
type AfterLLMEvent struct {
	Response map[string]any
	Model    string
	Turn     int
}

// BeforeToolEvent is what Hooks.BeforeTool sees.
type BeforeToolEvent struct {
	Name string
	Args map[string]any
	ID   string
	Turn int
}

// AfterToolEvent is what Hooks.AfterTool sees.
type AfterToolEvent struct {
	Name   string
	Args   map[string]any
	Result ToolResult
	ID     string
	Turn   int
}

// LLMOverride is what Hooks.BeforeLLM may return. A nil slice leaves that
// part as it is; a non-nil one (even empty) replaces it. Model, when set, is
// sent for this call only.
type LLMOverride struct {
	Messages []any
	Tools    []any
	Model    string
}

// ToolOverride is what Hooks.BeforeTool and Hooks.AfterTool may return.
type ToolOverride struct {
	Args   map[string]any
	Result *ToolResult
}
