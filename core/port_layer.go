package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

// The Go port's option shapes — Hooks, OnError, BodyTransform, decoded
// RunResult.Messages, TranslateRequest's Toolkit and ToolChoice; a
// toolkit's McpConfig, SkillsDir and Builtins config object — are applied
// through portLayer. CreateClient, CreateGenerateClient and CreateToolkit
// install it; CreateRawClient, CreateRawGenerateClient and CreateRawToolkit
// do not. The linker keeps
// a method of portShapes only when some reachable code converts portShapes
// to an interface, so a program that builds its clients only the raw way
// (the JS bridge) links none of that code: options are plain data, and a
// field test alone would keep every branch it guards.
type portLayer interface {
	beforeLLM(r *run, ctx context.Context, turn int) (string, error)
	afterLLM(r *run, ctx context.Context, turn int, model string, reply []byte, streamed bool) error
	beforeTool(r *run, ctx context.Context, call ToolCall, args map[string]any) (map[string]any, *ToolResult, error)
	afterTool(r *run, ctx context.Context, call ToolCall, args map[string]any, res ToolResult) (ToolResult, error)
	transformBody(body []byte, fn func(map[string]any) map[string]any) ([]byte, error)
	classify(fn func(ErrorInfo) Tier, err error, attempt int, retryable bool) Tier
	messages(t *transcript) []any
	translateExtras(req TranslateRequest, tools []json.RawMessage, anthropic bool) ([]json.RawMessage, []byte, error)
	// The toolkit's: Options.McpConfig, SkillsDir, Builtins as a map.
	mcpConfig(input any) ([]byte, error)
	skillsDirs(dirs []string) fs.FS
	builtinsObject(m map[string]any) (BuiltinsConfig, bool, error)
}

// portShapes is the one portLayer.
type portShapes struct{}

func (portShapes) beforeLLM(r *run, ctx context.Context, turn int) (string, error) {
	return r.beforeLLMHook(ctx, turn)
}

func (portShapes) afterLLM(r *run, ctx context.Context, turn int, model string, reply []byte, streamed bool) error {
	return r.afterLLMHook(ctx, turn, model, reply, streamed)
}

func (portShapes) beforeTool(r *run, ctx context.Context, call ToolCall, args map[string]any) (map[string]any, *ToolResult, error) {
	return r.beforeToolHook(ctx, call, args)
}

func (portShapes) afterTool(r *run, ctx context.Context, call ToolCall, args map[string]any, res ToolResult) (ToolResult, error) {
	return r.afterToolHook(ctx, call, args, res)
}

func (portShapes) transformBody(body []byte, fn func(map[string]any) map[string]any) ([]byte, error) {
	return transformBody(body, fn)
}

// classify asks OnError (attempt counts from 1, the port's from 0).
func (portShapes) classify(fn func(ErrorInfo) Tier, err error, attempt int, retryable bool) Tier {
	info := ErrorInfo{Err: err, Attempt: attempt - 1, Retryable: retryable}
	if pe, ok := errors.AsType[*ProviderError](err); ok {
		info.Err, info.Status = nil, pe.Status // the port's shape: a status, no error
	}
	return fn(info)
}

func (portShapes) messages(t *transcript) []any { return t.asMaps() }

// translateExtras applies TranslateRequest's Toolkit (declared before
// tools) and ToolChoice (returned as request parameters, `,"tool_choice":…`,
// in Anthropic's shape for an Anthropic client).
func (portShapes) translateExtras(req TranslateRequest, tools []json.RawMessage, anthropic bool) ([]json.RawMessage, []byte, error) {
	if req.Toolkit != nil {
		declared, err := encodeList(toAnyList(wireToolMaps(req.Toolkit.Tools(), StyleOpenAI)), "toolkit")
		if err != nil {
			return nil, nil, err
		}
		tools = append(declared, tools...)
	}
	choice := req.ToolChoice
	if anthropic {
		if tc := anthropicToolChoice(choice); tc != nil {
			choice = tc
		} else {
			choice = nil
		}
	}
	if choice == nil {
		return tools, nil, nil
	}
	params, err := encodeParams(map[string]any{"tool_choice": choice})
	if err != nil {
		return nil, nil, fmt.Errorf("core: translate: tool_choice: %w", err)
	}
	return tools, params, nil
}

func (portShapes) mcpConfig(input any) ([]byte, error) { return mcpConfigBytes(input) }

func (portShapes) skillsDirs(dirs []string) fs.FS { return dirsFS(dirs) }

func (portShapes) builtinsObject(m map[string]any) (BuiltinsConfig, bool, error) {
	return builtinsObject(m)
}

// errNeedsPortToolkit is a raw toolkit's answer to an option only the port
// layer reads.
func errNeedsPortToolkit(what string) error {
	return errors.New("core: create toolkit: " + what + " needs CreateToolkit (this toolkit is raw: CreateRawToolkit)")
}

// errNeedsPortLayer is a raw client's answer to an option only the port
// layer applies.
func errNeedsPortLayer(what string) error {
	return errors.New("core: " + what + " needs a client from CreateClient or CreateGenerateClient (this one is raw: CreateRawClient)")
}

// rawOptionError names the first option a raw client cannot apply.
func rawOptionError(opts *ClientOptions) error {
	switch {
	case opts.Hooks != nil:
		return errNeedsPortLayer("ClientOptions.Hooks")
	case opts.OnError != nil:
		return errNeedsPortLayer("ClientOptions.OnError")
	case opts.BodyTransform != nil:
		return errNeedsPortLayer("ClientOptions.BodyTransform")
	}
	return nil
}
