//go:build !js

package toolnexus

import (
	"context"
	"testing"
)

// An MCP server's header ${NAME} reads Options.Variables, then the process
// environment, as the Go port's ExpandEnvHeaders does; an unset name fails
// the server rather than sending an empty secret.
func TestMcpHeadersReadTheEnvironment(t *testing.T) {
	t.Setenv("TN_TEST_MCP_TOKEN", "from-env")
	m := mockMCP{WantAuth: "Bearer from-env"}
	srv := newMockMCP(t, &m)
	server := func(header string) McpConfig {
		return McpConfig{"docs": {URL: srv.URL + "/mcp", Headers: map[string]string{"Authorization": header}}}
	}
	for _, tc := range []struct {
		name   string
		header string
		vars   map[string]string
		want   McpStatus
	}{
		{"from the environment", "Bearer ${TN_TEST_MCP_TOKEN}", nil, StatusConnected},
		{"Variables win", "Bearer ${TN_TEST_MCP_TOKEN}", map[string]string{"TN_TEST_MCP_TOKEN": "wrong"}, StatusFailed},
		{"unset is an error", "Bearer ${TN_TEST_MCP_UNSET}", nil, StatusFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk, err := CreateToolkit(context.Background(), Options{Builtins: false, McpConfig: server(tc.header), Variables: tc.vars})
			if err != nil {
				t.Fatal(err)
			}
			defer tk.Close()
			if got := tk.McpStatus()["docs"]; got != tc.want {
				t.Fatalf("toolkit: docs is %q, want %q", got, tc.want)
			}
		})
	}
	inv, err := ListMcpTools(context.Background(), server("Bearer ${TN_TEST_MCP_TOKEN}"))
	if err != nil {
		t.Fatal(err)
	}
	if inv.Status["docs"] != StatusConnected || len(inv.Tools["docs"]) == 0 {
		t.Fatalf("ListMcpTools with an environment header: %+v", inv)
	}
}
