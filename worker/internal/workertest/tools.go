package workertest

import (
	"sync/atomic"

	"github.com/toolnexus/wasm/core"
)

// CountRefunds wraps the tool named "refund" in tools so that each run of
// it adds one to n: the tests check that an approved call ran exactly once
// (and a refused or replayed one never). The Worker's harnesses pass
// worker.DefaultTools(env) through it (workertest cannot import worker:
// package worker's own tests use it).
func CountRefunds(tools []core.Tool, n *atomic.Int32) []core.Tool {
	for i, t := range tools {
		if t.Name == "refund" {
			exec := t.Execute
			tools[i].Execute = func(args map[string]any, ctx *core.ToolContext) (core.ToolResult, error) {
				n.Add(1)
				return exec(args, ctx)
			}
		}
	}
	return tools
}
