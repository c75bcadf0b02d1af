package toolnexus

import (
	"strings"
	"testing"
)

// TestPortMcpToolsFilter: a server's "tools" filter picks its tools by
// their own names, as the Go port's does: any true value makes an
// allowlist, only false values a drop-list; the server's state counts the
// tools kept.
func TestPortMcpToolsFilter(t *testing.T) {
	f := &fakeMCP{Tools: []string{
		`{"name":"read","inputSchema":{"type":"object"}}`,
		`{"name":"write","inputSchema":{"type":"object"}}`,
		`{"name":"delete","inputSchema":{"type":"object"}}`,
	}}
	for _, c := range []struct{ filter, want string }{
		{``, "fake_read,fake_write,fake_delete"},
		{`,"tools":{"read":true,"delete":true,"nosuch":true}`, "fake_read,fake_delete"},
		{`,"tools":{"delete":false}`, "fake_read,fake_write"},
		{`,"tools":{}`, "fake_read,fake_write,fake_delete"},
	} {
		tk := fakeToolkit(t, f, []byte(`{"mcpServers":{"fake":{"url":"https://mcp.test/mcp","timeout":2000`+c.filter+`}}}`))
		if got := toolNames(tk); got != c.want {
			t.Fatalf("filter %s: tools %s, want %s", c.filter, got, c.want)
		}
		if st := tk.MCPServers()["fake"]; st.Tools != strings.Count(c.want, ",")+1 {
			t.Fatalf("filter %s: status %+v", c.filter, st)
		}
	}
	if _, err := ParseMCPConfig([]byte(`{"mcpServers":{"fake":{"url":"https://mcp.test/mcp","tools":["read"]}}}`)); err == nil ||
		!strings.Contains(err.Error(), "tools must be an object") {
		t.Fatalf("a list for tools: %v", err)
	}
}
