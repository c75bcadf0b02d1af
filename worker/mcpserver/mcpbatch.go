package mcpserver

import (
	"context"
	"net/http"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker"
)

// mcpMaxBatch is the most messages one POST /mcp may carry as a JSON-RPC
// batch. Each message may need the toolkit, and a toolkit contacts every
// server of MCP_CONFIG: the bound keeps one request's upstream work small.
const mcpMaxBatch = 16

// checkBatch refuses an empty batch or one over mcpMaxBatch with a JSON-RPC
// error (HTTP 400); ok false means it answered.
func checkBatch(w http.ResponseWriter, batch gjson.Result) (ok bool) {
	switch n := len(batch.Array()); {
	case n == 0:
		worker.WriteJSON(w, http.StatusBadRequest, rpcFail(nil, -32600, "invalid request: an empty batch"))
		return false
	case n > mcpMaxBatch:
		worker.WriteJSON(w, http.StatusBadRequest, rpcFail(nil, -32600, "invalid request: a batch holds at most %d messages, this one %d", mcpMaxBatch, n))
		return false
	}
	return true
}

// mcpToolkit is the toolkit of one POST /mcp, built on first use and shared
// by every message of a batch, so that a batch opens each upstream MCP
// session once rather than once per message.
type mcpToolkit struct {
	h     handler
	ctx   context.Context
	tk    *core.Toolkit
	err   error
	built bool
}

func (l *mcpToolkit) get() (*core.Toolkit, error) {
	if !l.built {
		l.built = true
		l.tk, l.err = l.h.NewToolkit(l.ctx, "")
	}
	return l.tk, l.err
}

// close ends the toolkit's MCP sessions, when it was built.
func (l *mcpToolkit) close() {
	if l.tk != nil {
		l.tk.Close()
	}
}
