//go:build !js

package core

import (
	"context"
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

func TestMCPToolSource(t *testing.T) {
	tests := []struct {
		name      string
		mock      mockMCP
		transport string
	}{
		{name: "streamable HTTP with JSON replies and a session", mock: mockMCP{sessionID: "s-1", pageSize: 3}, transport: "streamable-http"},
		{name: "streamable HTTP with SSE replies", mock: mockMCP{sse: true, sessionID: "s-2", pageSize: 1}, transport: "streamable-http"},
		{name: "fallback to HTTP+SSE", mock: mockMCP{legacy: true}, transport: "sse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.mock
			srv := newMockMCP(t, &m)
			var asked []Request
			tk, err := CreateToolkit(context.Background(), Options{
				Builtins:   false,
				ExtraTools: []Tool{NativeTool("docs_echo", "wins over the MCP tool", nil, func(context.Context, map[string]any) (string, error) { return "native", nil })},
				MCP:        mcpConfig(`"docs":{"url":"` + srv.URL + `/mcp","headers":{"Authorization":"Bearer ${TOKEN}"},"timeout":5000}`),
				Variables:  map[string]string{"TOKEN": "t0k"},
				WaitFor: func(r Request) (Answer, error) {
					asked = append(asked, r)
					return AnswerOutput(r.ID, nil), nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			st := tk.MCPServers()["docs"]
			if st.Status != MCPConnected || st.Transport != tc.transport || st.Tools != 3 {
				t.Fatalf("status %+v", st)
			}
			names := []string{}
			for _, tool := range tk.Tools() {
				names = append(names, tool.Name+":"+string(tool.Source))
			}
			if got := strings.Join(names, ","); got != "docs_echo:native,docs_stats:mcp,docs_fail:mcp,docs_ask_name:mcp" {
				t.Fatalf("tools %s", got)
			}
			if !m.caps.Get("elicitation").Exists() {
				t.Errorf("elicitation not advertised: %s", m.caps.Raw)
			}
			calls := []struct {
				tool, want string
				isErr      bool
			}{
				{"docs_stats", `{"count":3,"ok":true}`, false},
				{"docs_fail", "boom\ntwice", true},
			}
			for _, c := range calls {
				res, err := tk.Execute(context.Background(), c.tool, nil)
				if err != nil || res.Output != c.want || res.IsError != c.isErr {
					t.Errorf("%s: %+v %v", c.tool, res, err)
				}
			}
			res, _ := tk.Execute(context.Background(), "docs_ask_name", nil)
			if tc.mock.sse || tc.mock.legacy {
				if res.Output != "action=accept name=" || len(asked) != 1 {
					t.Errorf("ask: %+v asked=%v", res, asked)
				} else if asked[0].Kind != "input" || asked[0].Prompt != "Your name?" || gjson.Get(mustJSON(asked[0].Data), "schema.properties.name.type").String() != "string" {
					t.Errorf("elicitation request %+v", asked[0])
				}
			}
			if err := tk.Close(); err != nil {
				t.Fatal(err)
			}
			_ = tk.Close()
			if m.sessionID != "" && m.deletes != 1 {
				t.Errorf("DELETE with the session id sent %d times", m.deletes)
			}
			if got := strings.Join(m.seen(), ","); !strings.HasPrefix(got, "initialize,notifications/initialized,tools/list") {
				t.Errorf("methods %s", got)
			}
		})
	}
}

func TestMCPElicitationAnswers(t *testing.T) {
	tests := []struct {
		name string
		wait func(Request) (Answer, error)
		want string
	}{
		{"accept with the answer's data", func(r Request) (Answer, error) {
			return Answer{ID: r.ID, Ok: true, Data: map[string]any{"name": "Ada"}}, nil
		}, "action=accept name=Ada"},
		{"decline", func(r Request) (Answer, error) { return AnswerDeclined(r.ID, ""), nil }, "action=decline name="},
		{"cancel when waitFor fails", func(r Request) (Answer, error) { return Answer{}, fmt.Errorf("dialog closed") }, "action=cancel name="},
		{"cancel reason", func(r Request) (Answer, error) { return AnswerDeclined(r.ID, "cancelled"), nil }, "action=cancel name="},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mockMCP{sse: true}
			srv := newMockMCP(t, &m)
			tk, err := CreateToolkit(context.Background(), Options{MCP: mcpConfig(`"s":{"url":"` + srv.URL + `/mcp"}`), WaitFor: tc.wait})
			if err != nil {
				t.Fatal(err)
			}
			defer tk.Close()
			res, _ := tk.Execute(context.Background(), "s_ask_name", nil)
			if res.Output != tc.want {
				t.Errorf("got %+v", res)
			}
		})
	}
}

func TestMCPFailuresStillBuild(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	slow := mockMCP{delay: 3 * time.Second}
	slowSrv := newMockMCP(t, &slow)
	auth := mockMCP{wantAuth: "Bearer right"}
	authSrv := newMockMCP(t, &auth)
	ok := mockMCP{}
	okSrv := newMockMCP(t, &ok)
	cfg := mcpConfig(
		`"dead":{"url":"`+deadURL+`/mcp","timeout":2000}`,
		`"slow":{"type":"remote","url":"`+slowSrv.URL+`/mcp","timeout":300}`,
		`"auth":{"url":"`+authSrv.URL+`/mcp","headers":{"authorization":"Bearer wrong"}}`,
		`"novar":{"url":"`+okSrv.URL+`/mcp","headers":{"authorization":"Bearer ${MISSING}"}}`,
		`"local":{"command":"npx","args":["some-server"]}`,
		`"off":{"url":"`+okSrv.URL+`/mcp","enabled":false}`,
		`"off2":{"url":"`+okSrv.URL+`/mcp","disabled":true}`,
		`"good":{"url":"`+okSrv.URL+`/mcp"}`,
	)
	start := time.Now()
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, MCP: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("CreateToolkit took %v: the slow server's 300 ms timeout did not apply", d)
	}
	want := map[string]string{
		"dead": "failed:initialize: POST", "slow": "failed:initialize: timed out after 300 ms",
		"auth": "failed:initialize: HTTP 401", "novar": "failed:config: header authorization: variable MISSING is not set",
		"local": "failed:local (stdio)", "off": "disabled:", "off2": "disabled:", "good": "connected:",
	}
	st := tk.MCPServers()
	for name, w := range want {
		got := st[name].Status + ":" + st[name].Reason
		if !strings.HasPrefix(got, w) {
			t.Errorf("%s: got %q, want prefix %q", name, got, w)
		}
		if strings.Contains(got, "wrong") {
			t.Errorf("%s: the reason leaks a header value: %q", name, got)
		}
	}
	if len(tk.Tools()) != 4 {
		t.Errorf("want the good server's 4 tools, got %d", len(tk.Tools()))
	}
}

func TestMCPTextResultAndNoElicitation(t *testing.T) {
	m := mockMCP{sse: true}
	srv := newMockMCP(t, &m)
	tk, err := CreateToolkit(context.Background(), Options{MCP: mcpConfig(`"my server!":{"url":"` + srv.URL + `/mcp"}`)})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if m.caps.Get("elicitation").Exists() {
		t.Errorf("elicitation advertised without WaitFor")
	}
	res, _ := tk.Execute(context.Background(), "my_server__echo", map[string]any{"text": "hi"})
	if res.Output != "you said\n[image: image/png, 8 bytes]\nhi" || res.IsError {
		t.Errorf("echo: %+v", res)
	}
	res, _ = tk.Execute(context.Background(), "my_server__ask_name", nil)
	if !res.IsError || !strings.Contains(res.Output, "does not support elicitation") {
		t.Errorf("ask without WaitFor: %+v", res)
	}
}
