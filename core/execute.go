package core

import (
	"context"
	"fmt"
	"time"
)

// safeExecute runs a tool with its time limit and turns a returned error or a
// panic into an error result: a tool never ends the run, and under js/wasm a
// panic would end the whole instance.
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
	done := make(chan ToolResult, 1)
	go func() { done <- callTool(t, args, tctx) }()
	select {
	case res := <-done:
		return res
	case <-ctx.Done():
		if ctx.Err() == context.DeadlineExceeded {
			return ToolResult{Output: fmt.Sprintf("tool %q timed out after %d ms", t.Name, tctx.Timeout), IsError: true}
		}
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
