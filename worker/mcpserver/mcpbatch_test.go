package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/mcpserve"
	"github.com/toolnexus/wasm/worker"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"

	"github.com/toolnexus/wasm/internal/httpx"
)

// upstreamMCP is an MCP server behind a Transport (no sockets: the test
// runs under js/wasm too) that counts the sessions opened.
type upstreamMCP struct{ sessions atomic.Int32 }

func (u *upstreamMCP) Do(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
	m := gjson.ParseBytes(req.Body)
	body, status := "", 202
	switch m.Get("method").String() {
	case "initialize":
		u.sessions.Add(1)
		body = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"up","version":"1"}}`
	case "tools/list":
		body = `{"tools":[{"name":"lookup","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},{"name":"wipe","inputSchema":{"type":"object"}}]}`
	}
	if body != "" {
		body, status = `{"jsonrpc":"2.0","id":`+m.Get("id").Raw+`,"result":`+body+`}`, 200
	}
	return &core.HTTPResponse{Status: status, Header: map[string]string{"content-type": "application/json"}, Body: io.NopCloser(strings.NewReader(body))}, nil
}

func serveMCPOnce(h httpx.Handler, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	rec := httptest.NewRecorder()
	nethttp.Handler(h).ServeHTTP(rec, req)
	return rec
}

func batchOf(n int, method string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"%s"}`, i+1, method)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// TestMCPBatchBounded: a batch over mcpserve.MaxBatch messages, or an empty one,
// is refused with a JSON-RPC error before any work; a batch within the
// bound opens each upstream MCP session once, however many of its
// messages need the toolkit.
func TestMCPBatchBounded(t *testing.T) {
	up := &upstreamMCP{}
	env := map[string]string{"MCP_CONFIG": `{"mcpServers":{"up":{"url":"http://up.test/mcp"}}}`}
	h := worker.NewHandler(worker.Options{Getenv: func(k string) string { return env[k] }, Transport: up, Logf: t.Logf}, Mount)
	tests := []struct {
		name, body string
		status     int
		sessions   int32
		want       map[string]string // gjson path ⇒ value
	}{
		{"over the bound", batchOf(mcpserve.MaxBatch+4, "tools/list"), 400, 0,
			map[string]string{"error.code": "-32600", "error.message": "invalid request: a batch holds at most 16 messages, this one 20", "id": ""}},
		{"empty", `[]`, 400, 0, map[string]string{"error.code": "-32600"}},
		{"at the bound, one session", batchOf(mcpserve.MaxBatch, "tools/list"), 200, 1,
			map[string]string{"#": "16", "15.id": "16", "0.result.tools.#(name==\"up_wipe\").name": "up_wipe"}},
		{"pings build no toolkit", batchOf(3, "ping"), 200, 0, map[string]string{"#": "3"}},
		{"one message, one session", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 200, 1, map[string]string{"result.tools.#(name==\"up_lookup\").name": "up_lookup"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := up.sessions.Load()
			rec := serveMCPOnce(h, tc.body)
			if rec.Code != tc.status {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			for path, want := range tc.want {
				if got := gjson.Get(rec.Body.String(), path).String(); got != want {
					t.Errorf("%s = %q, want %q", path, got, want)
				}
			}
			if got := up.sessions.Load() - before; got != tc.sessions {
				t.Errorf("%d upstream sessions opened, want %d", got, tc.sessions)
			}
		})
	}
}

// TestMCPToolsNeedApproval: GET /v1/tools shows the MCP approval policy:
// by default an upstream tool asks unless it is annotated readOnlyHint,
// and the server's "approval" setting overrides that.
func TestMCPToolsNeedApproval(t *testing.T) {
	for _, tc := range []struct{ setting, want string }{
		{``, `up_lookup:false,up_wipe:true`},
		{`,"approval":"always"`, `up_lookup:true,up_wipe:true`},
		{`,"approval":["lookup"]`, `up_lookup:true,up_wipe:false`},
	} {
		env := map[string]string{"MCP_CONFIG": `{"mcpServers":{"up":{"url":"http://up.test/mcp"` + tc.setting + `}}}`}
		h := worker.NewHandler(worker.Options{Getenv: func(k string) string { return env[k] }, Transport: &upstreamMCP{}, Logf: t.Logf}, Mount)
		rec := httptest.NewRecorder()
		nethttp.Handler(h).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/tools", nil))
		var got []string
		for _, tool := range gjson.Get(rec.Body.String(), `tools.#(source=="mcp")#`).Array() {
			got = append(got, tool.Get("name").String()+":"+tool.Get("needsApproval").String())
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("approval%s: %v, want %s (%d %s)", tc.setting, got, tc.want, rec.Code, rec.Body)
		}
	}
	env := map[string]string{"MCP_CONFIG": `{"mcpServers":{"up":{"url":"http://up.test/mcp","approval":"maybe"}}}`}
	h := worker.NewHandler(worker.Options{Getenv: func(k string) string { return env[k] }, Transport: &upstreamMCP{}, Logf: t.Logf}, Mount)
	rec := httptest.NewRecorder()
	nethttp.Handler(h).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/tools", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `MCP_CONFIG is invalid: mcp config: server \"up\": approval must be`) {
		t.Errorf("a bad approval setting: %d %s", rec.Code, rec.Body)
	}
}
