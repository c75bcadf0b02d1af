//go:build !js

package testmcp

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

// Mock is a small MCP server for the client tests: streamable HTTP with
// JSON or SSE replies, or the older HTTP+SSE transport.
type Mock struct {
	t         *testing.T
	SSE       bool          // streamable replies as event streams
	Legacy    bool          // only the 2024-11-05 HTTP+SSE transport
	Delay     time.Duration // before every reply
	WantAuth  string        // required authorization header
	PageSize  int           // tools per tools/list page (0: all)
	SessionID string

	Mu       *sync.Mutex // guards SessionID, Deletes and Caps
	methods  []string
	Deletes  int               // DELETEs with the session id
	Caps     gjson.Result      // the client capabilities of initialize
	answers  chan gjson.Result // elicitation replies posted by the client
	legacyCh chan []byte       // messages for the legacy GET stream
}

// MockTools are the tools Mock lists.
var MockTools = []string{
	`{"name":"echo","description":"echo text","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}`,
	`{"name":"stats","description":"structured","inputSchema":{"type":"object"}}`,
	`{"name":"fail","description":"always fails","inputSchema":{"type":"object"}}`,
	`{"name":"ask.name","description":"asks for a name","inputSchema":{"type":"object"}}`,
}

// NewMockMCP serves m on a test server closed when t ends.
func NewMockMCP(t *testing.T, m *Mock) *httptest.Server {
	m.t = t
	m.Mu = new(sync.Mutex)
	m.answers = make(chan gjson.Result, 4)
	m.legacyCh = make(chan []byte, 16)
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return srv
}

func (m *Mock) record(method string) {
	m.Mu.Lock()
	m.methods = append(m.methods, method)
	m.Mu.Unlock()
}

// Seen returns the methods the server received, in order.
func (m *Mock) Seen() []string {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	return append([]string(nil), m.methods...)
}

// ServeHTTP serves one request.
func (m *Mock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if m.Delay > 0 {
		select {
		case <-time.After(m.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if m.WantAuth != "" && r.Header.Get("Authorization") != m.WantAuth {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if m.Legacy {
		m.serveLegacy(w, r)
		return
	}
	switch r.Method {
	case http.MethodDelete:
		m.Mu.Lock()
		if r.Header.Get("Mcp-Session-Id") == m.SessionID {
			m.Deletes++
		}
		m.Mu.Unlock()
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
	if method != "initialize" && m.SessionID != "" && r.Header.Get("Mcp-Session-Id") != m.SessionID {
		http.Error(w, "unknown session", http.StatusNotFound)
		return
	}
	if !msg.Get("id").Exists() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if method == "initialize" && m.SessionID != "" {
		w.Header().Set("Mcp-Session-Id", m.SessionID)
	}
	if !m.SSE {
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
func (m *Mock) serveLegacy(w http.ResponseWriter, r *http.Request) {
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
func (m *Mock) reply(msg gjson.Result, ask func(req string) gjson.Result) string {
	id := msg.Get("id").Raw
	result := func(r string) string { return `{"jsonrpc":"2.0","id":` + id + `,"result":` + r + `}` }
	switch msg.Get("method").String() {
	case "initialize":
		m.Mu.Lock()
		m.Caps = msg.Get("params.capabilities")
		m.Mu.Unlock()
		return result(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"mock","version":"1"}}`)
	case "tools/list":
		start := 0
		if c := msg.Get("params.cursor"); c.Exists() {
			fmt.Sscan(c.String(), &start)
		}
		end := len(MockTools)
		if m.PageSize > 0 && start+m.PageSize < end {
			end = start + m.PageSize
		}
		next := ""
		if end < len(MockTools) {
			next = fmt.Sprintf(`,"nextCursor":"%d"`, end)
		}
		return result(`{"tools":[` + strings.Join(MockTools[start:end], ",") + `]` + next + `}`)
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

// Config is an MCP config with servers, each a `"name":{...}` entry.
func Config(servers ...string) []byte {
	return []byte(`{"mcpServers":{` + strings.Join(servers, ",") + `}}`)
}
