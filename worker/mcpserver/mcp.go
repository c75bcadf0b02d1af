package mcpserver

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
)

// POST /mcp serves the Worker's toolkit as a remote MCP server over
// streamable HTTP: initialize, notifications/initialized, ping, tools/list
// and tools/call. It sits behind API_TOKEN like /v1/*.
//
//   - The Worker keeps no sessions. The Mcp-Session-Id it hands out only
//     records whether the client advertised elicitation ("….e").
//   - A tool that needs approval answers tools/call with an event stream:
//     an elicitation/create request (the exact arguments in the message,
//     an empty form: accept approves), then the tool's result once the
//     client posts its answer. The answer may reach another instance: it
//     travels through Options.Mailbox (memory shared by the isolate, and the
//     STATE_KV namespace when bound). A client that did not advertise
//     elicitation gets an error result saying approval is required.
//   - A batch holds at most mcpMaxBatch (16) messages, and the messages of
//     one POST share one toolkit (mcpbatch.go).
//   - GET (a server-to-client stream) is not offered: 405.

// Mount adds POST and DELETE /mcp to the Worker's handler.
func Mount(h *worker.Handler) {
	h.Handle("/mcp", worker.Route{Name: "mcp", Post: serveMCP, Delete: serveMCPDelete, Allow: "POST, DELETE, OPTIONS", API: true, JSON: true})
}

// handler is the Worker's handler bound to one request, as the MCP server
// uses it.
type handler struct {
	*worker.Handler
	opts *worker.Options
}

func serveMCP(wh *worker.Handler, w http.ResponseWriter, r *http.Request) {
	handler{wh, wh.Options()}.serveMCP(w, r)
}

func serveMCPDelete(wh *worker.Handler, w http.ResponseWriter, r *http.Request) {
	handler{wh, wh.Options()}.serveMCPDelete(w, r)
}

// mcpProtocols are the protocol versions the server speaks, newest first.
var mcpProtocols = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

const (
	// mcpApprovalWait bounds how long tools/call waits for an approval.
	mcpApprovalWait = 10 * time.Minute
	// mcpToolTimeout bounds one tool run.
	mcpToolTimeout = 60 * time.Second
	// mcpPoll is how often a waiting tools/call looks for the answer.
	mcpPoll = 100 * time.Millisecond
	// mcpElicitPrefix starts the id of every elicitation request the
	// Worker sends, and so the mailbox key of its answer.
	mcpElicitPrefix = "tnx-elicit-"
)

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  any             `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func rpcResult(id json.RawMessage, result any) rpcMessage {
	return rpcMessage{JSONRPC: "2.0", ID: id, Result: result}
}

func rpcFail(id json.RawMessage, code int, format string, args ...any) rpcMessage {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return rpcMessage{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}}
}

func (h handler) serveMCPDelete(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusNoContent) // nothing is kept per session
}

func (h handler) serveMCP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		worker.WriteError(w, http.StatusRequestEntityTooLarge, "body_too_large", "the request body is too large")
		return
	}
	w.Header().Set("Access-Control-Expose-Headers", "Mcp-Session-Id")
	if err := jsonx.CheckDepth(body, jsonx.MaxDepth); err != nil {
		worker.WriteJSON(w, http.StatusBadRequest, rpcFail(nil, -32700, "parse error: %v", err))
		return
	}
	if !gjson.ValidBytes(body) {
		worker.WriteJSON(w, http.StatusBadRequest, rpcFail(nil, -32700, "parse error: the body is not JSON"))
		return
	}
	msg := gjson.ParseBytes(body)
	tks := &mcpToolkit{h: h, ctx: r.Context()}
	defer tks.close()
	if msg.IsArray() {
		if !checkBatch(w, msg) {
			return
		}
		var out []rpcMessage
		msg.ForEach(func(_, m gjson.Result) bool {
			if reply, ok := h.mcpMessage(r, w, m, tks); ok {
				out = append(out, reply)
			}
			return true
		})
		if len(out) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		worker.WriteJSON(w, http.StatusOK, out)
		return
	}
	if msg.Get("method").String() == "tools/call" && msg.Get("id").Exists() {
		h.mcpToolsCall(w, r, msg)
		return
	}
	reply, ok := h.mcpMessage(r, w, msg, tks)
	if !ok {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	worker.WriteJSON(w, http.StatusOK, reply)
}

// mcpMessage handles one message that needs no stream; ok false means no
// reply (a notification or a client's response). tks is the request's
// toolkit, shared by the messages of a batch.
func (h handler) mcpMessage(r *http.Request, w http.ResponseWriter, m gjson.Result, tks *mcpToolkit) (rpcMessage, bool) {
	id := json.RawMessage(m.Get("id").Raw)
	method := m.Get("method").String()
	if !m.IsObject() || m.Get("jsonrpc").String() != "2.0" {
		return rpcFail(id, -32600, "invalid request: want a JSON-RPC 2.0 object"), true
	}
	if method == "" {
		// A client's answer to our elicitation/create.
		if key := m.Get("id").String(); strings.HasPrefix(key, mcpElicitPrefix) {
			if err := h.opts.Mailbox().Put(r.Context(), key, []byte(m.Raw)); err != nil {
				h.opts.Logf("worker: mcp: could not deliver an elicitation answer: %v", err)
			}
		}
		return rpcMessage{}, false
	}
	if len(id) == 0 {
		return rpcMessage{}, false // notifications/initialized and the like
	}
	switch method {
	case "initialize":
		want := m.Get("params.protocolVersion").String()
		version := mcpProtocols[0]
		for _, v := range mcpProtocols {
			if v == want {
				version = v
			}
		}
		sid := "tnx-" + worker.RandomHex(12)
		if m.Get("params.capabilities.elicitation").IsObject() {
			sid += ".e"
		}
		w.Header().Set("Mcp-Session-Id", sid)
		// Constant parts as JSON text: a map literal is code that runs.
		return rpcResult(id, map[string]any{
			"protocolVersion": version,
			"capabilities":    json.RawMessage(`{"tools":{}}`),
			"serverInfo":      json.RawMessage(`{"name":"toolnexus-worker","version":"0.1.0"}`),
		}), true
	case "ping":
		return rpcResult(id, json.RawMessage(`{}`)), true
	case "tools/list":
		tk, err := tks.get()
		if err != nil {
			return rpcFail(id, -32603, "build toolkit: %v", err), true
		}
		tools := []map[string]any{}
		for _, t := range tk.Tools() {
			tools = append(tools, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.InputSchema})
		}
		return rpcResult(id, map[string]any{"tools": tools}), true
	case "tools/call":
		return rpcFail(id, -32600, "tools/call cannot be batched"), true
	}
	return rpcFail(id, -32601, "method not found: %s", method), true
}

// mcpToolsCall runs one tool. One that needs approval asks the client
// first, when it can.
func (h handler) mcpToolsCall(w http.ResponseWriter, r *http.Request, m gjson.Result) {
	id := json.RawMessage(m.Get("id").Raw)
	name := m.Get("params.name").String()
	args, _ := m.Get("params.arguments").Value().(map[string]any)
	if a := m.Get("params.arguments"); a.Exists() && a.Type != gjson.Null && !a.IsObject() {
		worker.WriteJSON(w, http.StatusOK, rpcFail(id, -32602, "invalid params: arguments must be an object"))
		return
	}
	tk, err := h.NewToolkit(r.Context(), "")
	if err != nil {
		worker.WriteJSON(w, http.StatusOK, rpcFail(id, -32603, "build toolkit: %v", err))
		return
	}
	defer tk.Close()
	tool, ok := tk.Get(name)
	if !ok {
		worker.WriteJSON(w, http.StatusOK, rpcFail(id, -32602, "unknown tool %q", name))
		return
	}
	if !tool.NeedsApproval {
		worker.WriteJSON(w, http.StatusOK, rpcResult(id, h.mcpRun(r.Context(), tk, name, args)))
		return
	}
	if !strings.HasSuffix(r.Header.Get("Mcp-Session-Id"), ".e") {
		worker.WriteJSON(w, http.StatusOK, rpcResult(id, mcpText(fmt.Sprintf(
			"tool %q needs a person's approval, and this MCP client does not support elicitation: approval is required (use POST /v1/run, which halts for approval)", name), true)))
		return
	}
	// Ask over an event stream, then answer on the same stream.
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	key := mcpElicitPrefix + worker.RandomHex(12)
	shown, _ := worker.MarshalJSON(args)
	if args == nil {
		shown = []byte("{}")
	}
	writeEvent(w, rpcMessage{JSONRPC: "2.0", ID: json.RawMessage(`"` + key + `"`), Method: "elicitation/create", Params: map[string]any{
		"mode":            "form",
		"message":         "Approve running " + name + " with these arguments?\n" + string(shown),
		"requestedSchema": json.RawMessage(`{"properties":{},"type":"object"}`),
	}})
	answer, err := h.mcpAwait(r.Context(), key)
	var result map[string]any
	switch action := answer.Get("result.action").String(); {
	case err != nil:
		result = mcpText(fmt.Sprintf("tool %q was not run: no answer to the approval request (%v)", name, err), true)
	case action == "accept":
		result = h.mcpRun(r.Context(), tk, name, args)
	case action == "decline":
		result = mcpText(fmt.Sprintf("tool %q was not run: the person declined it", name), true)
	default:
		result = mcpText(fmt.Sprintf("tool %q was not run: the approval was cancelled", name), true)
	}
	writeEvent(w, rpcResult(id, result))
}

// mcpAwait polls the mailbox for the client's answer to key.
func (h handler) mcpAwait(ctx context.Context, key string) (gjson.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, mcpApprovalWait)
	defer cancel()
	box := h.opts.Mailbox()
	for {
		b, ok, err := box.Take(ctx, key)
		if err != nil {
			return gjson.Result{}, err
		}
		if ok {
			return gjson.ParseBytes(b), nil
		}
		select {
		case <-ctx.Done():
			return gjson.Result{}, ctx.Err()
		case <-time.After(mcpPoll):
		}
	}
}

func (h handler) mcpRun(ctx context.Context, tk *core.Toolkit, name string, args map[string]any) map[string]any {
	ctx, cancel := context.WithTimeout(ctx, mcpToolTimeout)
	defer cancel()
	res, err := tk.Execute(ctx, name, args)
	if err != nil {
		return mcpText(err.Error(), true)
	}
	return mcpText(res.Output, res.IsError)
}

func mcpText(text string, isError bool) map[string]any {
	out := map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
	if isError {
		out["isError"] = true
	}
	return out
}

func writeEvent(w http.ResponseWriter, m rpcMessage) {
	b, _ := worker.MarshalJSON(m)
	fmt.Fprintf(w, "event: message\ndata: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
