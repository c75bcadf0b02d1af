package mcpserver

import (
	"context"
	"io"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/mcpserve"
	"github.com/toolnexus/wasm/worker"
)

// POST /mcp serves the Worker's toolkit as a remote MCP server over
// streamable HTTP, with this repository's MCP server (internal/mcpserve,
// which the Go port's Toolkit.Serve mounts too). It sits behind API_TOKEN
// like /v1/*.
//
//   - Each POST builds the Worker's toolkit (its tools, MCP_CONFIG's
//     servers, the built-ins and skills it turns on) and closes it after.
//   - An approval's answer may reach another instance: it travels through
//     Options.Mailbox (memory shared by the isolate, and the STATE_KV
//     namespace when bound).
//   - A batch holds at most mcpserve.MaxBatch (16) messages.
//   - GET (a server-to-client stream) is not offered: 405.

// Mount adds POST and DELETE /mcp to the Worker's handler.
func Mount(h *worker.Handler) {
	h.Handle("/mcp", worker.Route{Name: "mcp", Post: serveMCP, Delete: serveMCPDelete, Allow: "POST, DELETE, OPTIONS", API: true, JSON: true})
}

func serveMCP(wh *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		worker.WriteError(w, httpx.StatusRequestEntityTooLarge, "body_too_large", "the request body is too large")
		return
	}
	opts := wh.Options()
	srv := &mcpserve.Server{
		Name: "toolnexus-worker", Version: "0.1.0",
		Toolkit: func(ctx context.Context) (*core.Toolkit, func(), error) {
			tk, err := wh.NewToolkit(ctx, "")
			if err != nil {
				return nil, nil, err
			}
			return tk, func() { tk.Close() }, nil
		},
		Mailbox:   func() mcpserve.Mailbox { return opts.Mailbox() },
		Logf:      func(format string, args ...any) { opts.Logf("worker: "+format, args...) },
		WriteJSON: worker.WriteJSON,
	}
	srv.Handle(w, r, body)
}

func serveMCPDelete(wh *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	w.WriteHeader(httpx.StatusNoContent) // nothing is kept per session
}
