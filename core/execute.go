package core

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"time"
)

// safeExecute runs a tool with its time limit and turns a returned error or a
// panic into an error result: a tool never ends the run, and under js/wasm a
// panic would end the whole instance.
//
// The time limit reaches the tool through tctx.Ctx, which it must honour
// (JS tools do: the bridge awaits them with it). The tool runs on the
// caller's goroutine: a goroutine and a channel per call cost about a tenth
// of a turn's time under js/wasm (measured with bench/loop.mjs).
func safeExecute(t Tool, args map[string]any, tctx *ToolContext) ToolResult {
	if tctx.Ctx == nil {
		tctx.Ctx = context.Background()
	}
	if tctx.Timeout <= 0 {
		return callTool(t, args, tctx)
	}
	ctx, cancel := context.WithTimeout(tctx.Ctx, time.Duration(tctx.Timeout)*time.Millisecond)
	defer cancel()
	tctx.Ctx = ctx
	res := callTool(t, args, tctx)
	// Past the limit the result is not trusted to be complete: the tool was
	// told to stop.
	switch {
	case ctx.Err() == nil:
		return res
	case ctx.Err() == context.DeadlineExceeded:
		return ToolResult{Output: fmt.Sprintf("tool %q timed out after %d ms", t.Name, tctx.Timeout), IsError: true}
	default:
		return ToolResult{Output: fmt.Sprintf("tool %q was cancelled: %v", t.Name, ctx.Err()), IsError: true}
	}
}

func callTool(t Tool, args map[string]any, tctx *ToolContext) (res ToolResult) {
	defer func() {
		if p := recover(); p != nil {
			res = ToolResult{Output: fmt.Sprintf("tool %q panicked: %v", t.Name, p), IsError: true}
		}
	}()
	out, err := t.Execute(args, tctx)
	if err != nil {
		msg := err.Error()
		if out.Output != "" {
			msg = out.Output + ": " + msg
		}
		return ToolResult{Output: msg, IsError: true, Metadata: out.Metadata}
	}
	return out
}
