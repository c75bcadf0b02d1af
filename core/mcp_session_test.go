//go:build !js

package core

import (
	"context"
	"strings"
	"testing"
)

// TestMCPSessionExpired: a server that forgets the session (a restart)
// answers 404; the client starts a new session and retries once.
func TestMCPSessionExpired(t *testing.T) {
	m := mockMCP{SSE: true, SessionID: "s-old"}
	srv := newMockMCP(t, &m)
	tk, err := CreateToolkit(context.Background(), Options{
		MCP: mcpConfig(`"r":{"url":"` + srv.URL + `/mcp"}`),
		WaitFor: func(r Request) (Answer, error) {
			return Answer{ID: r.ID, Ok: true, Data: map[string]any{"name": "Bo"}}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	m.Mu.Lock()
	m.SessionID = "s-new" // the server restarted
	m.Mu.Unlock()
	tests := []struct{ tool, want string }{
		{"r_echo", "you said\n[image: image/png, 8 bytes]\nagain"},
		{"r_ask_name", "action=accept name=Bo"},
	}
	for _, tc := range tests {
		res, _ := tk.Execute(context.Background(), tc.tool, map[string]any{"text": "again"})
		if res.Output != tc.want || res.IsError {
			t.Errorf("%s after the restart: %+v", tc.tool, res)
		}
	}
	if got := strings.Count(strings.Join(m.Seen(), ","), "initialize,"); got != 2 {
		t.Errorf("want one new initialize, saw %d in %v", got, m.Seen())
	}
}

// TestMCPCallAfterClose: Close ends the session, and a later call is an
// error result rather than a new session.
func TestMCPCallAfterClose(t *testing.T) {
	m := mockMCP{SessionID: "s-1"}
	srv := newMockMCP(t, &m)
	tk, err := CreateToolkit(context.Background(), Options{MCP: mcpConfig(`"c":{"url":"` + srv.URL + `/mcp"}`)})
	if err != nil {
		t.Fatal(err)
	}
	tk.Close()
	res, _ := tk.Execute(context.Background(), "c_echo", map[string]any{"text": "x"})
	if !res.IsError || !strings.Contains(res.Output, "closed") {
		t.Errorf("after Close: %+v", res)
	}
	if n := strings.Count(strings.Join(m.Seen(), ","), "initialize,"); n != 1 {
		t.Errorf("initialize sent %d times", n)
	}
}
