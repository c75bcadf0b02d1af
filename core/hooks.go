package core

import (
	"context"
	"encoding/json"
)

// Hooks are the lifecycle callbacks around the loop (ClientOptions.Hooks).
// A nil Hooks, or a nil field, is skipped. Any hook that returns an error
// ends the run with that error (Status "incomplete", Limit "error"). The
// hooks of one turn's tool calls may run concurrently, as the calls do.
//
// The model-call hooks see the transcript and the tool list as the encoded
// messages the loop keeps: a hook that needs Go values decodes what it
// reads, and a run without it decodes nothing.
type Hooks struct {
	// BeforeLLM runs before each model call. It may replace call.Messages
	// or call.Tools (kept for the rest of the run) and call.Model (this
	// call only), or return a response to use instead of calling the
	// provider.
	BeforeLLM func(ctx context.Context, call *LLMCall) (*LLMResponse, error)
	// AfterLLM runs after each model call and may rewrite the parsed reply
	// before the loop acts on it.
	AfterLLM func(ctx context.Context, call *LLMCall, resp *LLMResponse) error
	// BeforeTool runs before a tool (once: not again when an Answer runs
	// the call once more): an override with Result set answers for the
	// tool (it does not run; a Pending result suspends the call), one with
	// Args set changes its arguments.
	BeforeTool func(ctx context.Context, ev BeforeToolEvent) (*ToolOverride, error)
	// AfterTool runs after a tool finished (not when it suspended): an
	// override with Result set replaces the result.
	AfterTool func(ctx context.Context, ev AfterToolEvent) (*ToolOverride, error)
}

// LLMCall is one model call as Hooks.BeforeLLM and Hooks.AfterLLM see it.
type LLMCall struct {
	// Turn counts model calls from 0.
	Turn int
	// Model is the model this call asks for.
	Model string
	// Messages is the transcript in the provider's format, without the
	// system prompt (core sends that apart).
	Messages []json.RawMessage
	// Tools is the tool list in the provider's format (nil: none; a
	// BeforeLLM that sets "[]" sends none).
	Tools json.RawMessage
	// Reply is the provider's reply body, for AfterLLM; nil when the reply
	// was streamed (Streamed) or a BeforeLLM answered instead.
	Reply    json.RawMessage
	Streamed bool
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

// ToolOverride is what Hooks.BeforeTool and Hooks.AfterTool may return.
type ToolOverride struct {
	Args   map[string]any
	Result *ToolResult
}
