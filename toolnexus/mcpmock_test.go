//go:build !js

package toolnexus

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// mockMCP is a small MCP server for the client tests: streamable HTTP with
// JSON or SSE replies, or the older HTTP+SSE transport.
type mockMCP struct {
	t         *testing.T
	sse       bool          // streamable replies as event streams
	legacy    bool          // only the 2024-11-05 HTTP+SSE transport
	delay     time.Duration // before every reply
	wantAuth  string        // required authorization header
	pageSize  int           // tools per tools/list page (0: all)
	sessionID string

	mu       *sync.Mutex
	methods  []string
	deletes  int
	caps     gjson.Result
	answers  chan gjson.Result // elicitation replies posted by the client
	legacyCh chan []byte       // messages for the legacy GET stream
}

var mockTools = []string{
	`{"name":"echo","description":"echo text","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}`,
	`{"name":"stats","description":"structured","inputSchema":{"type":"object"}}`,
	`{"name":"fail","description":"always fails","inputSchema":{"type":"object"}}`,
	`{"name":"ask.name","description":"asks for a name","inputSchema":{"type":"object"}}`,
}

func newMockMCP(t *testing.T, m *mockMCP) *httptest.Server {
	m.t = t
	m.mu = new(sync.Mutex)
	m.answers = make(chan gjson.Result, 4)
	m.legacyCh = make(chan []byte, 16)
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return srv
}

func (m *mockMCP) record(method string) {
	m.mu.Lock()
	m.methods = append(m.methods, method)
	m.mu.Unlock()
}

func (m *mockMCP) seen() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.methods...)
}

func (m *mockMCP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if m.delay > 0 {
		select {
		case <-time.After(m.delay):
		case <-r.Context().Done():
			return
		}
	}
	if m.wantAuth != "" && r.Header.Get("Authorization") != m.wantAuth {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if m.legacy {
		m.serveLegacy(w, r)
		return
	}
	switch r.Method {
	case http.MethodDelete:
		m.mu.Lock()
		if r.Header.Get("Mcp-Session-Id") == m.sessionID {
			m.deletes++
		}
		m.mu.Unlock()
		w.WriteHeader(http.StatusOK)
		return
	case http.MethodPost:
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	msg := gjson.ParseBytes(body)
	if !msg.Get("method").Exists() { // a reply to our elicitation
		m.answers <- msg
		w.WriteHeader(http.StatusAccepted)
		return
	}
	method := msg.Get("method").String()
	m.record(method)
	if method != "initialize" && m.sessionID != "" && r.Header.Get("Mcp-Session-Id") != m.sessionID {
		http.Error(w, "unknown session", http.StatusNotFound)
		return
	}
	if !msg.Get("id").Exists() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if method == "initialize" && m.sessionID != "" {
		w.Header().Set("Mcp-Session-Id", m.sessionID)
	}
	if !m.sse {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, m.reply(msg, nil))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	fmt.Fprint(w, ": hello\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n")
	fl.Flush()
	out := m.reply(msg, func(req string) gjson.Result {
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", req)
		fl.Flush()
		select {
		case a := <-m.answers:
			return a
		case <-time.After(5 * time.Second):
			return gjson.Result{}
		}
	})
	fmt.Fprintf(w, "event: message\ndata: %s\n\n", out)
}

// serveLegacy: GET opens the stream (endpoint event first), POST
// /messages queues the reply on it.
func (m *mockMCP) serveLegacy(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/mcp" {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: /messages?session=1\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case b := <-m.legacyCh:
				fmt.Fprintf(w, "event: message\ndata: %s\n\n", b)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}
	if r.Method != http.MethodPost || r.URL.Path != "/messages" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	msg := gjson.ParseBytes(body)
	if !msg.Get("method").Exists() {
		m.answers <- msg
		w.WriteHeader(http.StatusAccepted)
		return
	}
	m.record(msg.Get("method").String())
	w.WriteHeader(http.StatusAccepted)
	if msg.Get("id").Exists() {
		go func() {
			m.legacyCh <- []byte(m.reply(msg, func(req string) gjson.Result {
				m.legacyCh <- []byte(req)
				select {
				case a := <-m.answers:
					return a
				case <-time.After(5 * time.Second):
					return gjson.Result{}
				}
			}))
		}()
	}
}

// reply answers one request; ask sends an elicitation request and returns
// the client's reply (nil: elicitation is not possible on this reply).
func (m *mockMCP) reply(msg gjson.Result, ask func(req string) gjson.Result) string {
	id := msg.Get("id").Raw
	result := func(r string) string { return `{"jsonrpc":"2.0","id":` + id + `,"result":` + r + `}` }
	switch msg.Get("method").String() {
	case "initialize":
		m.mu.Lock()
		m.caps = msg.Get("params.capabilities")
		m.mu.Unlock()
		return result(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"mock","version":"1"}}`)
	case "tools/list":
		start := 0
		if c := msg.Get("params.cursor"); c.Exists() {
			fmt.Sscan(c.String(), &start)
		}
		end := len(mockTools)
		if m.pageSize > 0 && start+m.pageSize < end {
			end = start + m.pageSize
		}
		next := ""
		if end < len(mockTools) {
			next = fmt.Sprintf(`,"nextCursor":"%d"`, end)
		}
		return result(`{"tools":[` + strings.Join(mockTools[start:end], ",") + `]` + next + `}`)
	case "tools/call":
		switch msg.Get("params.name").String() {
		case "echo":
			return result(`{"content":[{"type":"text","text":"you said"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},{"type":"text","text":` + msg.Get("params.arguments.text").Raw + `}]}`)
		case "stats":
			return result(`{"content":[{"type":"text","text":"ignored"}],"structuredContent":{ "count": 3, "ok": true }}`)
		case "fail":
			return result(`{"content":[{"type":"text","text":"boom"},{"type":"text","text":"twice"}],"isError":true}`)
		case "ask.name":
			if ask == nil {
				return result(`{"content":[{"type":"text","text":"cannot ask"}],"isError":true}`)
			}
			a := ask(`{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`)
			if e := a.Get("error.message"); e.Exists() {
				return result(`{"content":[{"type":"text","text":` + e.Raw + `}],"isError":true}`)
			}
			return result(`{"content":[{"type":"text","text":"action=` + a.Get("result.action").String() + ` name=` + a.Get("result.content.name").String() + `"}]}`)
		}
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32602,"message":"unknown tool"}}`
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32601,"message":"method not found"}}`
}

func mcpConfig(servers ...string) []byte {
	return []byte(`{"mcpServers":{` + strings.Join(servers, ",") + `}}`)
}
