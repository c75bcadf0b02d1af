package toolnexus

import (
	"context"
	"testing"
)

// Conformance with the Go port's MCP configuration API.

func TestPortParseMcpConfig(t *testing.T) {
	doc := `{"mcpServers":{"docs":{"url":"https://docs.test/mcp","headers":{"authorization":"Bearer ${T}"},"timeout":5000,"tools":{"search":true}},"local":{"command":["npx","srv"],"env":{"A":"1"},"disabled":true}}}`
	bare, err := ParseMcpConfig([]byte(`{"docs":{"url":"https://docs.test/mcp"}}`))
	if err != nil || bare["docs"].URL != "https://docs.test/mcp" {
		t.Fatalf("bare: %+v %v", bare, err)
	}
	decoded, _ := decodeObject([]byte(doc))
	inputs := map[string]any{"bytes": []byte(doc), "map": decoded}
	if path, ok := mcpConfigFile(t, doc); ok {
		inputs["path"] = path
	}
	for name, input := range inputs {
		cfg, err := ParseMcpConfig(input)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d, l := cfg["docs"], cfg["local"]
		if len(cfg) != 2 || d.URL != "https://docs.test/mcp" || d.Headers["authorization"] != "Bearer ${T}" || d.Timeout != 5000 || !d.Tools["search"] ||
			len(l.Command) != 2 || l.Env["A"] != "1" || l.Disabled == nil || !*l.Disabled || d.Enabled != nil {
			t.Fatalf("%s: %+v", name, cfg)
		}
		again, err := ParseMcpConfig(cfg)
		if err != nil || len(again) != 2 {
			t.Fatalf("%s: McpConfig in: %+v %v", name, again, err)
		}
	}
	if _, err := ParseMcpConfig(42); err == nil {
		t.Fatal("an int must be refused")
	}
}

// TestPortOptionsMcpConfig: Options.McpConfig takes the port's forms.
func TestPortOptionsMcpConfig(t *testing.T) {
	off := true
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, McpConfig: McpConfig{"docs": {URL: "https://docs.test/mcp", Disabled: &off}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if st := tk.MCPServers()["docs"]; st.Status != MCPDisabled {
		t.Fatalf("status = %+v", tk.MCPServers())
	}
	if st := tk.McpStatus(); len(st) != 1 || st["docs"] != StatusDisabled {
		t.Fatalf("McpStatus = %v", st)
	}
}
