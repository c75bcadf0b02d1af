// Package testmcp holds the MCP servers that core's and toolnexus's tests
// share: Fake, in memory behind a Transport (it runs under js/wasm too), and
// Mock, a real HTTP server (not under js). It is test support only; no main
// links it, and it must not import core, whose tests are package core.
package testmcp

import (
	"context"
	"io"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/toolnexus/wasm/core/tool"
)

// Fake is an MCP server in memory, reached through its Transport, so
// that the MCP tests run under js/wasm too (Mock needs net/http): JSON
// replies over streamable HTTP, one session.
type Fake struct {
	// Tools are the raw JSON entries of tools/list.
	Tools []string
	// ListReply, when set, is the whole body answering tools/list.
	ListReply string
	// Call answers tools/call with a CallToolResult (JSON text) or, when
	// raw is true, with the whole reply body. It may block on ctx.
	Call func(ctx context.Context, name string, args gjson.Result) (result string, raw bool)

	Mu       sync.Mutex
	Messages []gjson.Result // every message the client posted
}

// Config is an MCP config naming the server "fake".
func (f *Fake) Config() []byte {
	return []byte(`{"mcpServers":{"fake":{"url":"https://mcp.test/mcp","timeout":2000}}}`)
}

// Seen returns the messages the client posted with method.
func (f *Fake) Seen(method string) []gjson.Result {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	var out []gjson.Result
	for _, m := range f.Messages {
		if m.Get("method").String() == method {
			out = append(out, m)
		}
	}
	return out
}

// Do answers one posted message.
func (f *Fake) Do(ctx context.Context, req *tool.HTTPRequest) (*tool.HTTPResponse, error) {
	if req.Method != "POST" {
		return &tool.HTTPResponse{Status: 405, Header: map[string]string{}, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
	m := gjson.ParseBytes(append([]byte(nil), req.Body...))
	f.Mu.Lock()
	f.Messages = append(f.Messages, m)
	f.Mu.Unlock()
	id := m.Get("id").Raw
	body := ""
	switch m.Get("method").String() {
	case "initialize":
		body = `{"jsonrpc":"2.0","id":` + id + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}`
	case "tools/list":
		body = f.ListReply
		if body == "" {
			body = `{"jsonrpc":"2.0","id":` + id + `,"result":{"tools":[` + strings.Join(f.Tools, ",") + `]}}`
		}
	case "tools/call":
		result, raw := `{"content":[{"type":"text","text":"ok"}]}`, false
		if f.Call != nil {
			result, raw = f.Call(ctx, m.Get("params.name").String(), m.Get("params.arguments"))
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		body = result
		if !raw {
			body = `{"jsonrpc":"2.0","id":` + id + `,"result":` + result + `}`
		}
	}
	status := 200
	if body == "" {
		status = 202 // a notification
	}
	return &tool.HTTPResponse{Status: status, Header: map[string]string{"content-type": "application/json", "mcp-session-id": "s1"},
		Body: io.NopCloser(strings.NewReader(body))}, nil
}
