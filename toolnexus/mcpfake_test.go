package toolnexus

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// fakeMCP is an MCP server in memory, reached through its Transport, so
// that the MCP tests run under js/wasm too (mockMCP needs net/http): JSON
// replies over streamable HTTP, one session.
type fakeMCP struct {
	// tools are the raw JSON entries of tools/list.
	tools []string
	// listReply, when set, is the whole body answering tools/list.
	listReply string
	// call answers tools/call with a CallToolResult (JSON text) or, when
	// raw is true, with the whole reply body. It may block on ctx.
	call func(ctx context.Context, name string, args gjson.Result) (result string, raw bool)

	mu       sync.Mutex
	messages []gjson.Result // every message the client posted
}

func (f *fakeMCP) config() []byte {
	return []byte(`{"mcpServers":{"fake":{"url":"https://mcp.test/mcp","timeout":2000}}}`)
}

// toolkit connects a toolkit to the server with cfg (nil: config()).
func (f *fakeMCP) toolkit(t *testing.T, cfg []byte) *Toolkit {
	t.Helper()
	if cfg == nil {
		cfg = f.config()
	}
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, MCP: cfg, Transport: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tk.Close() })
	return tk
}

func (f *fakeMCP) seen(method string) []gjson.Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []gjson.Result
	for _, m := range f.messages {
		if m.Get("method").String() == method {
			out = append(out, m)
		}
	}
	return out
}

func (f *fakeMCP) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	if req.Method != "POST" {
		return &HTTPResponse{Status: 405, Header: map[string]string{}, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
	m := gjson.ParseBytes(append([]byte(nil), req.Body...))
	f.mu.Lock()
	f.messages = append(f.messages, m)
	f.mu.Unlock()
	id := m.Get("id").Raw
	body := ""
	switch m.Get("method").String() {
	case "initialize":
		body = `{"jsonrpc":"2.0","id":` + id + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}`
	case "tools/list":
		body = f.listReply
		if body == "" {
			body = `{"jsonrpc":"2.0","id":` + id + `,"result":{"tools":[` + strings.Join(f.tools, ",") + `]}}`
		}
	case "tools/call":
		result, raw := `{"content":[{"type":"text","text":"ok"}]}`, false
		if f.call != nil {
			result, raw = f.call(ctx, m.Get("params.name").String(), m.Get("params.arguments"))
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
	return &HTTPResponse{Status: status, Header: map[string]string{"content-type": "application/json", "mcp-session-id": "s1"},
		Body: io.NopCloser(strings.NewReader(body))}, nil
}
