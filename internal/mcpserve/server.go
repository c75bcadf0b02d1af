// Package mcpserve is this repository's MCP server: a toolkit served as a
// remote MCP server over streamable HTTP (initialize,
// notifications/initialized, ping, tools/list and tools/call, batches of
// up to MaxBatch messages). The Worker mounts it at POST /mcp
// (worker/mcpserver) and the Go port's Toolkit.Serve at /mcp of its own
// server (toolnexus, the MCP profile): one server, two hosts.
//
//   - It keeps no sessions. The Mcp-Session-Id it hands out only records
//     whether the client advertised elicitation ("….e").
//   - A tool that needs approval answers tools/call with an event stream:
//     an elicitation/create request (the exact arguments in the message,
//     an empty form: accept approves), then the tool's result once the
//     client posts its answer. The answer may reach another instance: it
//     travels through Server.Mailbox. A client that did not advertise
//     elicitation gets an error result saying approval is required.
//   - The messages of one POST share one toolkit (Server.Toolkit).
//   - GET (a server-to-client stream) is not offered: the host answers 405.
package mcpserve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Mailbox hands a client's answer to an elicitation from the request that
// brings it to the request waiting for it (possibly another instance).
type Mailbox interface {
	Put(ctx context.Context, key string, value []byte) error
	// Take returns and removes the value under key, if there is one.
	Take(ctx context.Context, key string) ([]byte, bool, error)
}

// CallEvent is what Server.OnCall hears after each tools/call that ran.
type CallEvent struct {
	Name     string
	Source   core.ToolSource
	Duration time.Duration
	IsError  bool
}

// Server serves a toolkit over MCP. Toolkit is required; the rest has
// defaults.
type Server struct {
	// Name and Version are the serverInfo of initialize.
	Name, Version string
	// Toolkit gives the toolkit one POST uses and what to call when it is
	// done with it (the Worker builds one per request; a fixed toolkit's
	// release does nothing).
	Toolkit func(ctx context.Context) (tk *core.Toolkit, release func(), err error)
	// Expose picks the tools offered (nil: all); a tool it refuses is
	// unknown to tools/call too.
	Expose func(core.Tool) bool
	// Mailbox gives where elicitation answers travel, asked only when a
	// tool needs an approval; nil: approvals cannot be asked (such a tool
	// gets an error result saying so).
	Mailbox func() Mailbox
	// OnCall hears each tools/call that ran (a panic in it is dropped).
	OnCall func(CallEvent)
	// Logf logs what goes wrong outside a reply (nil: nothing).
	Logf func(format string, args ...any)
	// WriteJSON writes a reply (nil: JSON with Cache-Control: no-store);
	// the Worker gives its own, so every answer it makes has one shape.
	WriteJSON func(w httpx.ResponseWriter, status int, v any)
}

// The protocol versions the server speaks, newest first.
var protocols = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

const (
	// approvalWait bounds how long tools/call waits for an approval.
	approvalWait = 10 * time.Minute
	// toolTimeout bounds one tool run.
	toolTimeout = 60 * time.Second
	// poll is how often a waiting tools/call looks for the answer.
	poll = 100 * time.Millisecond
	// elicitPrefix starts the id of every elicitation request the server
	// sends, and so the mailbox key of its answer.
	elicitPrefix = "tnx-elicit-"
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

// idOf is a message's id as it goes back: compact JSON, so the reply is
// byte for byte what encoding/json would write.
func idOf(m gjson.Result) json.RawMessage {
	id := m.Get("id")
	if id.IsObject() || id.IsArray() {
		return json.RawMessage(id.Get("@ugly").Raw)
	}
	return json.RawMessage(id.Raw)
}

// Handle answers one POST whose body the host has read (and bounded).
func (s *Server) Handle(w httpx.ResponseWriter, r *httpx.Request, body []byte) {
	w.Header().Set("Access-Control-Expose-Headers", "Mcp-Session-Id")
	if err := jsonx.CheckDepth(body, jsonx.MaxDepth); err != nil {
		s.writeJSON(w, httpx.StatusBadRequest, rpcFail(nil, -32700, "parse error: %v", err))
		return
	}
	if !gjson.ValidBytes(body) {
		s.writeJSON(w, httpx.StatusBadRequest, rpcFail(nil, -32700, "parse error: the body is not JSON"))
		return
	}
	msg := gjson.ParseBytes(body)
	tks := &requestToolkit{s: s, ctx: r.Context()}
	defer tks.close()
	if msg.IsArray() {
		if !s.checkBatch(w, msg) {
			return
		}
		var out []rpcMessage
		msg.ForEach(func(_, m gjson.Result) bool {
			if reply, ok := s.message(r, w, m, tks); ok {
				out = append(out, reply)
			}
			return true
		})
		if len(out) == 0 {
			w.WriteHeader(httpx.StatusAccepted)
			return
		}
		s.writeJSON(w, httpx.StatusOK, out)
		return
	}
	if msg.Get("method").String() == "tools/call" && msg.Get("id").Exists() {
		s.toolsCall(w, r, msg)
		return
	}
	reply, ok := s.message(r, w, msg, tks)
	if !ok {
		w.WriteHeader(httpx.StatusAccepted)
		return
	}
	s.writeJSON(w, httpx.StatusOK, reply)
}

// message handles one message that needs no stream; ok false means no
// reply (a notification or a client's response). tks is the request's
// toolkit, shared by the messages of a batch.
func (s *Server) message(r *httpx.Request, w httpx.ResponseWriter, m gjson.Result, tks *requestToolkit) (rpcMessage, bool) {
	id := idOf(m)
	method := m.Get("method").String()
	if !m.IsObject() || m.Get("jsonrpc").String() != "2.0" {
		return rpcFail(id, -32600, "invalid request: want a JSON-RPC 2.0 object"), true
	}
	if method == "" {
		// A client's answer to our elicitation/create.
		if key := m.Get("id").String(); strings.HasPrefix(key, elicitPrefix) && s.Mailbox != nil {
			if err := s.Mailbox().Put(r.Context(), key, []byte(m.Raw)); err != nil {
				s.logf("mcp: could not deliver an elicitation answer: %v", err)
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
		version := protocols[0]
		for _, v := range protocols {
			if v == want {
				version = v
			}
		}
		sid := "tnx-" + randomHex(12)
		if m.Get("params.capabilities.elicitation").IsObject() {
			sid += ".e"
		}
		w.Header().Set("Mcp-Session-Id", sid)
		info := append(append(append(append([]byte(`{"name":`), jsonx.AppendString(nil, s.Name)...), `,"version":`...), jsonx.AppendString(nil, s.Version)...), '}')
		// Constant parts as JSON text: a map literal is code that runs.
		return rpcResult(id, map[string]any{
			"protocolVersion": version,
			"capabilities":    json.RawMessage(`{"tools":{}}`),
			"serverInfo":      json.RawMessage(info),
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
			if s.Expose == nil || s.Expose(t) {
				tools = append(tools, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.InputSchema})
			}
		}
		return rpcResult(id, map[string]any{"tools": tools}), true
	case "tools/call":
		return rpcFail(id, -32600, "tools/call cannot be batched"), true
	}
	return rpcFail(id, -32601, "method not found: %s", method), true
}

// toolsCall runs one tool. One that needs approval asks the client first,
// when it can.
func (s *Server) toolsCall(w httpx.ResponseWriter, r *httpx.Request, m gjson.Result) {
	id := idOf(m)
	name := m.Get("params.name").String()
	args, _ := m.Get("params.arguments").Value().(map[string]any)
	if a := m.Get("params.arguments"); a.Exists() && a.Type != gjson.Null && !a.IsObject() {
		s.writeJSON(w, httpx.StatusOK, rpcFail(id, -32602, "invalid params: arguments must be an object"))
		return
	}
	tks := &requestToolkit{s: s, ctx: r.Context()}
	defer tks.close()
	tk, err := tks.get()
	if err != nil {
		s.writeJSON(w, httpx.StatusOK, rpcFail(id, -32603, "build toolkit: %v", err))
		return
	}
	tool, ok := tk.Get(name)
	if !ok || (s.Expose != nil && !s.Expose(tool)) {
		s.writeJSON(w, httpx.StatusOK, rpcFail(id, -32602, "unknown tool %q", name))
		return
	}
	if !tool.NeedsApproval {
		s.writeJSON(w, httpx.StatusOK, rpcResult(id, s.run(r.Context(), tk, tool, args)))
		return
	}
	if !strings.HasSuffix(r.Header.Get("Mcp-Session-Id"), ".e") || s.Mailbox == nil {
		s.writeJSON(w, httpx.StatusOK, rpcResult(id, text(fmt.Sprintf(
			"tool %q needs a person's approval, and this MCP client does not support elicitation: approval is required (use POST /v1/run, which halts for approval)", name), true)))
		return
	}
	// Ask over an event stream, then answer on the same stream.
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(httpx.StatusOK)
	key := elicitPrefix + randomHex(12)
	shown, _ := jsonx.Marshal(args)
	if args == nil {
		shown = []byte("{}")
	}
	s.writeEvent(w, rpcMessage{JSONRPC: "2.0", ID: json.RawMessage(`"` + key + `"`), Method: "elicitation/create", Params: map[string]any{
		"mode":            "form",
		"message":         "Approve running " + name + " with these arguments?\n" + string(shown),
		"requestedSchema": json.RawMessage(`{"properties":{},"type":"object"}`),
	}})
	answer, err := s.await(r.Context(), key)
	var result map[string]any
	switch action := answer.Get("result.action").String(); {
	case err != nil:
		result = text(fmt.Sprintf("tool %q was not run: no answer to the approval request (%v)", name, err), true)
	case action == "accept":
		result = s.run(r.Context(), tk, tool, args)
	case action == "decline":
		result = text(fmt.Sprintf("tool %q was not run: the person declined it", name), true)
	default:
		result = text(fmt.Sprintf("tool %q was not run: the approval was cancelled", name), true)
	}
	s.writeEvent(w, rpcResult(id, result))
}

// await polls the mailbox for the client's answer to key.
func (s *Server) await(ctx context.Context, key string) (gjson.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, approvalWait)
	defer cancel()
	box := s.Mailbox()
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
		case <-time.After(poll):
		}
	}
}

func (s *Server) run(ctx context.Context, tk *core.Toolkit, t core.Tool, args map[string]any) map[string]any {
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	start := time.Now()
	res, err := tk.Execute(ctx, t.Name, args)
	if err != nil {
		res = core.ToolResult{Output: err.Error(), IsError: true}
	}
	if s.OnCall != nil {
		func() {
			defer func() { _ = recover() }() // a host's callback never breaks a reply
			s.OnCall(CallEvent{Name: t.Name, Source: t.Source, Duration: time.Since(start), IsError: res.IsError})
		}()
	}
	return text(res.Output, res.IsError)
}

func text(s string, isError bool) map[string]any {
	out := map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
	if isError {
		out["isError"] = true
	}
	return out
}

func (s *Server) writeJSON(w httpx.ResponseWriter, status int, v any) {
	if s.WriteJSON != nil {
		s.WriteJSON(w, status, v)
		return
	}
	b, err := jsonx.Marshal(v)
	if err != nil {
		status, b = httpx.StatusInternalServerError, []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"could not encode the reply"}}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func (s *Server) writeEvent(w httpx.ResponseWriter, m rpcMessage) {
	b, _ := jsonx.Marshal(m)
	fmt.Fprintf(w, "event: message\ndata: %s\n\n", b)
	if f, ok := w.(httpx.Flusher); ok {
		f.Flush()
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// errNoToolkit is the toolkit a Server without Toolkit reports.
var errNoToolkit = errors.New("mcpserve: the server has no toolkit")
