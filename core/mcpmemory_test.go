package core

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// memoryMCP is an MCP server behind a Transport: no sockets, so the
// tests that use it run natively and under js/wasm alike. It answers
// initialize, tools/list (tools, raw JSON entries) and tools/call (results
// by tool name, raw JSON); a call of a tool in hang waits until its
// request is cancelled. Every message it receives is kept.
type memoryMCP struct {
	tools   []string
	results map[string]string
	hang    map[string]bool

	mu       sync.Mutex
	received []gjson.Result
	notified chan gjson.Result // notifications, as they arrive
}

func newMemoryMCP(tools ...string) *memoryMCP {
	return &memoryMCP{tools: tools, results: map[string]string{}, hang: map[string]bool{}, notified: make(chan gjson.Result, 16)}
}

// config is an MCP configuration with this server as name, plus extra
// JSON members for the server ("approval": …).
func (f *memoryMCP) config(name, extra string) []byte {
	if extra != "" {
		extra = "," + extra
	}
	return []byte(`{"mcpServers":{"` + name + `":{"url":"http://fake.test/mcp"` + extra + `}}}`)
}

func (f *memoryMCP) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	if req.Method != "POST" {
		return f.reply(200, ""), nil
	}
	m := gjson.ParseBytes(req.Body)
	f.mu.Lock()
	f.received = append(f.received, m)
	f.mu.Unlock()
	if !m.Get("id").Exists() {
		select {
		case f.notified <- m:
		default:
		}
		return f.reply(202, ""), nil
	}
	result := "{}"
	switch m.Get("method").String() {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}`
	case "tools/list":
		result = `{"tools":[` + strings.Join(f.tools, ",") + `]}`
	case "tools/call":
		name := m.Get("params.name").String()
		if f.hang[name] {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		if r, ok := f.results[name]; ok {
			result = r
		} else {
			result = `{"content":[{"type":"text","text":"ran ` + name + `"}]}`
		}
	}
	return f.reply(200, `{"jsonrpc":"2.0","id":`+m.Get("id").Raw+`,"result":`+result+`}`), nil
}

func (f *memoryMCP) reply(status int, body string) *HTTPResponse {
	h := map[string]string{"mcp-session-id": "fake-1"}
	if body != "" {
		h["content-type"] = "application/json"
	}
	return &HTTPResponse{Status: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}
}

// awaitNotification waits up to d for a notification of method.
func (f *memoryMCP) awaitNotification(method string, d time.Duration) (gjson.Result, bool) {
	deadline := time.After(d)
	for {
		select {
		case n := <-f.notified:
			if n.Get("method").String() == method {
				return n, true
			}
		case <-deadline:
			return gjson.Result{}, false
		}
	}
}

// methods lists the methods received, in order.
func (f *memoryMCP) methods() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.received))
	for _, m := range f.received {
		out = append(out, m.Get("method").String())
	}
	return out
}
