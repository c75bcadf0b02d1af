package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolnexus/wasm/core/wire"
)

// The Go port's option shapes — Hooks, OnError, BodyTransform, decoded
// RunResult.Messages, TranslateRequest's Toolkit and ToolChoice; a
// toolkit's McpConfig, SkillsDir and Builtins config object — are applied
// through a portLayer. CreateClient, CreateGenerateClient and CreateToolkit
// install portFuncs; CreateRawClient, CreateRawGenerateClient and
// CreateRawToolkit do not. Options are plain data, so a field test alone
// would keep every branch it guards; the linker keeps portFuncs, and the
// functions it holds, only when reachable code refers to it. A program that
// builds its clients and toolkits only the raw way (the JS bridge) links
// none of that code. Function fields rather than an interface: an
// interface's method wrappers and itab cost the builds that link both ways
// (the tools build, the Worker) more than they saved.
type portLayer struct {
	beforeLLM       func(r *run, ctx context.Context, turn int) (string, error)
	afterLLM        func(r *run, ctx context.Context, turn int, model string, reply []byte, streamed bool) error
	beforeTool      func(r *run, ctx context.Context, call ToolRequest, args map[string]any) (map[string]any, *ToolResult, error)
	afterTool       func(r *run, ctx context.Context, call ToolRequest, args map[string]any, res ToolResult) (ToolResult, error)
	transformBody   func(body []byte, fn func(map[string]any) map[string]any) ([]byte, error)
	classify        func(fn func(ErrorInfo) Tier, err error, attempt int, retryable bool) Tier
	messages        func(t *transcript) []any
	translateExtras func(req TranslateRequest, tools []json.RawMessage, anthropic bool) ([]json.RawMessage, []byte, error)
	// finishReason is Translate's finish reason in OpenAI's words
	// (wire.OpenAIFinishReason); raw clients keep the provider's.
	finishReason func(reason string, toolCalls bool) string
	// The toolkit's: Options.McpConfig, the port's skill options
	// (SkillsDir, Skills, SkillProvider, …), Builtins as a map.
	mcpConfig      func(input any) ([]byte, error)
	skills         func(ctx context.Context, opts Options) (*SkillSource, error)
	builtinsObject func(m map[string]any) (BuiltinsConfig, bool, error)
	// redactBody is RedactProviderBody: its scanner costs the browser
	// build ~1.7 kB gzip, so raw clients use dropAuthBody instead.
	redactBody func(status int, body string) string
}

// portFuncs is the one portLayer. Statically initialized: no init code
// refers to it.
var portFuncs = portLayer{
	beforeLLM:       (*run).beforeLLMHook,
	afterLLM:        (*run).afterLLMHook,
	beforeTool:      (*run).beforeToolHook,
	afterTool:       (*run).afterToolHook,
	transformBody:   transformBody,
	classify:        classifyOnError,
	messages:        (*transcript).asMaps,
	translateExtras: translateExtras,
	finishReason:    wire.OpenAIFinishReason,
	mcpConfig:       mcpConfigBytes,
	skills:          toolkitSkills,
	builtinsObject:  builtinsObject,
	redactBody:      RedactProviderBody,
}

// classifyOnError asks OnError (attempt counts from 1, the port's from 0).
func classifyOnError(fn func(ErrorInfo) Tier, err error, attempt int, retryable bool) Tier {
	info := ErrorInfo{Err: err, Attempt: attempt - 1, Retryable: retryable}
	if pe, ok := errors.AsType[*ProviderError](err); ok {
		info.Err, info.Status = nil, pe.Status // the port's shape: a status, no error
	}
	return fn(info)
}

// translateExtras applies TranslateRequest's Toolkit (declared before
// tools) and ToolChoice (returned as request parameters, `,"tool_choice":…`,
// in Anthropic's shape for an Anthropic client).
func translateExtras(req TranslateRequest, tools []json.RawMessage, anthropic bool) ([]json.RawMessage, []byte, error) {
	if req.Toolkit != nil {
		declared, err := encodeList(toAnyList(wireToolMaps(req.Toolkit.Tools(), StyleOpenAI)), "toolkit")
		if err != nil {
			return nil, nil, err
		}
		tools = append(declared, tools...)
	}
	choice := req.ToolChoice
	if anthropic {
		if tc := wire.AnthropicToolChoice(choice); tc != nil {
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
