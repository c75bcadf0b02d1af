package mcpserve

import (
	"context"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
)

// MaxBatch is the most messages one POST may carry as a JSON-RPC batch.
// Each message may need the toolkit, and a Worker's toolkit contacts every
// server of MCP_CONFIG: the bound keeps one request's upstream work small.
const MaxBatch = 16

// checkBatch refuses an empty batch or one over MaxBatch with a JSON-RPC
// error (HTTP 400); ok false means it answered.
func (s *Server) checkBatch(w httpx.ResponseWriter, batch gjson.Result) (ok bool) {
	switch n := len(batch.Array()); {
	case n == 0:
		s.writeJSON(w, httpx.StatusBadRequest, rpcFail(nil, -32600, "invalid request: an empty batch"))
		return false
	case n > MaxBatch:
		s.writeJSON(w, httpx.StatusBadRequest, rpcFail(nil, -32600, "invalid request: a batch holds at most %d messages, this one %d", MaxBatch, n))
		return false
	}
	return true
}

// requestToolkit is the toolkit of one POST, got on first use and shared
// by every message of a batch, so that a batch opens each upstream MCP
// session once rather than once per message.
type requestToolkit struct {
	s       *Server
	ctx     context.Context
	tk      *core.Toolkit
	release func()
	err     error
	got     bool
}

func (l *requestToolkit) get() (*core.Toolkit, error) {
	if !l.got {
		l.got = true
		if l.s.Toolkit == nil {
			l.err = errNoToolkit
		} else {
			l.tk, l.release, l.err = l.s.Toolkit(l.ctx)
		}
	}
	return l.tk, l.err
}

// close releases the toolkit, when it was got.
func (l *requestToolkit) close() {
	if l.release != nil {
		l.release()
	}
}
