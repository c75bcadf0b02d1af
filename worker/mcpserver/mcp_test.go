//go:build !js

package mcpserver

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// mcpWorker serves a Handler with the default tools and env.
func mcpWorker(t *testing.T, env map[string]string) *httptest.Server {
	t.Helper()
	h := worker.NewHandler(worker.Options{Getenv: func(k string) string { return env[k] }, Logf: t.Logf}, Mount)
	srv := httptest.NewServer(nethttp.Handler(h))
	t.Cleanup(srv.Close)
	return srv
}

type mcpCall struct {
	status int
	header http.Header
	body   string
}

func postMCP(t *testing.T, url, session, token, body string) mcpCall {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return mcpCall{resp.StatusCode, resp.Header, string(b)}
}

func TestMCPServerMessages(t *testing.T) {
	srv := mcpWorker(t, map[string]string{"API_TOKEN": testAPIToken})
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if c := postMCP(t, srv.URL, "", "", init); c.status != http.StatusUnauthorized {
		t.Fatalf("without the API token: %d %s", c.status, c.body)
	}
	c := postMCP(t, srv.URL, "", testAPIToken, init)
	sid := c.header.Get("Mcp-Session-Id")
	if c.status != 200 || gjson.Get(c.body, "result.protocolVersion").String() != "2025-06-18" || sid == "" || strings.HasSuffix(sid, ".e") {
		t.Fatalf("initialize: %d %q %s", c.status, sid, c.body)
	}
	tests := []struct {
		name, body string
		status     int
		want       map[string]string // gjson path ⇒ value
	}{
		{"initialized notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, nil},
		{"ping", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, 200, map[string]string{"id": "2", "result": "{}"}},
		{"tools/list", `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`, 200, map[string]string{"result.tools.#": "2", "result.tools.0.name": "add", "result.tools.1.name": "refund", "result.tools.0.inputSchema.required.0": "a"}},
		{"tools/call add", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}`, 200, map[string]string{"result.content.0.text": "5", "result.isError": ""}},
		{"tools/call with a tool error", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}`, 200, map[string]string{"result.isError": "true"}},
		{"approval without elicitation", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"refund","arguments":{"order":42}}}`, 200, map[string]string{"result.isError": "true"}},
		{"unknown tool", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope"}}`, 200, map[string]string{"error.code": "-32602"}},
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"resources/list"}`, 200, map[string]string{"error.code": "-32601"}},
		{"bad arguments", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"add","arguments":[1]}}`, 200, map[string]string{"error.code": "-32602"}},
		{"not JSON", `{"jsonrpc":`, 400, map[string]string{"error.code": "-32700"}},
		{"not JSON-RPC", `{"id":9,"method":"ping"}`, 200, map[string]string{"error.code": "-32600"}},
		{"batch", `[{"jsonrpc":"2.0","id":10,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`, 200, map[string]string{"#": "1", "0.id": "10"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := postMCP(t, srv.URL, sid, testAPIToken, tc.body)
			if c.status != tc.status {
				t.Fatalf("status %d: %s", c.status, c.body)
			}
			for path, want := range tc.want {
				if got := gjson.Get(c.body, path).String(); got != want {
					t.Errorf("%s = %q, want %q in %s", path, got, want, c.body)
				}
			}
		})
	}
	if c := postMCP(t, srv.URL, sid, testAPIToken, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"refund","arguments":{"order":42}}}`); !strings.Contains(c.body, "approval is required") {
		t.Errorf("approval message: %s", c.body)
	}
}

// TestMCPServerElicitsApproval reads the event stream by hand: the
// elicitation request first, then (after the answer is posted) the result.
func TestMCPServerElicitsApproval(t *testing.T) {
	for _, action := range []string{"accept", "decline", "cancel"} {
		t.Run(action, func(t *testing.T) {
			srv := mcpWorker(t, map[string]string{})
			c := postMCP(t, srv.URL, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}}}}`)
			sid := c.header.Get("Mcp-Session-Id")
			if !strings.HasSuffix(sid, ".e") {
				t.Fatalf("session id %q does not record elicitation", sid)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"refund","arguments":{"order":42}}}`))
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Fatalf("content-type %q", ct)
			}
			events := bufio.NewReader(resp.Body)
			next := func() gjson.Result {
				for {
					line, err := events.ReadString('\n')
					if err != nil {
						t.Fatalf("stream: %v", err)
					}
					if strings.HasPrefix(line, "data: ") {
						return gjson.Parse(line[6:])
					}
				}
			}
			ask := next()
			if ask.Get("method").String() != "elicitation/create" || !strings.Contains(ask.Get("params.message").String(), `{"order":42}`) {
				t.Fatalf("elicitation: %s", ask.Raw)
			}
			answer := `{"jsonrpc":"2.0","id":` + ask.Get("id").Raw + `,"result":{"action":"` + action + `","content":{}}}`
			if c := postMCP(t, srv.URL, sid, "", answer); c.status != 202 {
				t.Fatalf("posting the answer: %d %s", c.status, c.body)
			}
			res := next()
			text := res.Get("result.content.0.text").String()
			want := map[string]string{"accept": "refunded order 42", "decline": "declined", "cancel": "cancelled"}[action]
			if res.Get("id").Int() != 2 || !strings.Contains(text, want) || res.Get("result.isError").Bool() != (action != "accept") {
				t.Errorf("result: %s", res.Raw)
			}
		})
	}
}

// TestMCPClientAgainstWorker points core's MCP client at the Worker's /mcp
// and a second Worker's MCP_CONFIG at the first (the Worker as a gateway).
func TestMCPClientAgainstWorker(t *testing.T) {
	srv := mcpWorker(t, map[string]string{"API_TOKEN": testAPIToken})
	var asked []core.Request
	tk, err := core.CreateToolkit(context.Background(), core.Options{
		MCP:       []byte(`{"mcpServers":{"edge":{"url":"` + srv.URL + `/mcp","headers":{"Authorization":"Bearer ${T}"},"timeout":5000}}}`),
		Variables: map[string]string{"T": testAPIToken},
		WaitFor: func(r core.Request) (core.Answer, error) {
			asked = append(asked, r)
			return core.AnswerOutput(r.ID, nil), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if st := tk.MCPServers()["edge"]; st.Status != core.MCPConnected || st.Tools != 2 {
		t.Fatalf("status %+v", st)
	}
	res, _ := tk.Execute(context.Background(), "edge_refund", map[string]any{"order": 7})
	if res.Output != "refunded order 7" || len(asked) != 1 || asked[0].Kind != "input" {
		t.Fatalf("refund over MCP: %+v, asked %+v", res, asked)
	}

	gateway := mcpWorker(t, map[string]string{
		"MCP_CONFIG": `{"mcpServers":{"edge":{"url":"` + srv.URL + `/mcp","headers":{"authorization":"Bearer ${EDGE_TOKEN}"}},"gone":{"url":"http://127.0.0.1:1/mcp","timeout":1000}}}`,
		"EDGE_TOKEN": testAPIToken,
	})
	resp, err := http.Get(gateway.URL + "/v1/tools")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	names := gjson.GetBytes(b, "tools.#.name").String()
	if names != `["add","refund","edge_add","edge_refund"]` || gjson.GetBytes(b, "tools.2.source").String() != "mcp" {
		t.Errorf("gateway tools: %s", b)
	}
}
