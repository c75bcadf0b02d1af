//go:build js && wasm

package jsbridge

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"runtime"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// hostExecute calls a JS tool registered in the host (host.go): the
// arguments, the call id and the answer cross as JSON text, the outcome
// comes back as text — within the call when run returns synchronously. The
// call's idempotency key crosses too (ctx.idempotencyKey).
func hostExecute(slot *hostSlot) func(map[string]any, *core.ToolContext) (core.ToolResult, error) {
	return func(args map[string]any, tctx *core.ToolContext) (core.ToolResult, error) {
		// The model's text when args are exactly it, else args encoded.
		in := []byte(nil)
		inP, inN := stringPtr(tctx.ArgsJSON), len(tctx.ArgsJSON)
		if inN == 0 {
			var err error
			if in, err = jsonx.Marshal(args); err != nil {
				return core.ToolResult{}, err
			}
			inP, inN = bytesPtr(in), len(in)
		}
		var answer []byte
		var err error
		if tctx.Answer != nil {
			if answer, err = jsonx.Marshal(tctx.Answer); err != nil {
				return core.ToolResult{}, err
			}
		}
		op := newHostOp()
		key := tctx.IdempotencyKey
		err = op.start("tool", slot.n, inP, inN, stringPtr(tctx.CallID), len(tctx.CallID), bytesPtr(answer), len(answer),
			stringPtr(key), len(key))
		runtime.KeepAlive(in)
		runtime.KeepAlive(tctx)
		if err != nil {
			return core.ToolResult{}, err
		}
		r, err := op.wait(tctx.Ctx, nil)
		runtime.KeepAlive(slot) // the tool still runs in JS until it settles
		if err != nil {
			return core.ToolResult{Output: err.Error(), IsError: true}, nil
		}
		out, _ := op.take(r)
		switch r.code {
		case 0:
			return core.ToolResult{Output: string(out)}, nil
		case 1:
			// Depth first: resultFromJSON reads metadata recursively.
			if err := jsonx.CheckDepth(out, jsonx.MaxDepth); err != nil {
				return core.ToolResult{}, fmt.Errorf("tool result: %w", err)
			}
			return resultFromJSON(string(out))
		case 2:
			return core.ToolResult{Output: string(out), IsError: true}, nil
		}
		return core.ToolResult{}, errors.New("tool: unknown outcome from the host")
	}
}
