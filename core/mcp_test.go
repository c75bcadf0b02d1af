//go:build !js

package core

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

func TestMCPToolSource(t *testing.T) {
	tests := []struct {
		name      string
		mock      mockMCP
		transport string
	}{
		{name: "streamable HTTP with JSON replies and a session", mock: mockMCP{SessionID: "s-1", PageSize: 3}, transport: "streamable-http"},
		{name: "streamable HTTP with SSE replies", mock: mockMCP{SSE: true, SessionID: "s-2", PageSize: 1}, transport: "streamable-http"},
		{name: "fallback to HTTP+SSE", mock: mockMCP{Legacy: true}, transport: "sse"},
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
			if !m.Caps.Get("elicitation").Exists() {
				t.Errorf("elicitation not advertised: %s", m.Caps.Raw)
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
			if tc.mock.SSE || tc.mock.Legacy {
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
			if m.SessionID != "" && m.Deletes != 1 {
				t.Errorf("DELETE with the session id sent %d times", m.Deletes)
			}
			if got := strings.Join(m.Seen(), ","); !strings.HasPrefix(got, "initialize,notifications/initialized,tools/list") {
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
			m := mockMCP{SSE: true}
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
	slow := mockMCP{Delay: 3 * time.Second}
	slowSrv := newMockMCP(t, &slow)
	auth := mockMCP{WantAuth: "Bearer right"}
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
	m := mockMCP{SSE: true}
	srv := newMockMCP(t, &m)
	tk, err := CreateToolkit(context.Background(), Options{MCP: mcpConfig(`"my server!":{"url":"` + srv.URL + `/mcp"}`)})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if m.Caps.Get("elicitation").Exists() {
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
