package mcp

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

const defaultMCPTimeoutMs = 30_000

// Parse reads an MCP configuration: a JSON object whose top-level
// "mcpServers" (or "servers", or "mcp") maps server names to
//
//	{"type": "remote", "url": "https://…/mcp", "headers": {"authorization": "Bearer ${TOKEN}"},
//	 "timeout": 30000, "enabled": true, "approval": "destructive"}
//
// A url implies remote; "disabled": true or "enabled": false turns a server
// off; a "command" (or type "local"/"stdio") makes it a local server. A
// document that is only the name ⇒ server map is accepted too. Servers keep
// the order of the document.
func Parse(data []byte) ([]tool.MCPServerConfig, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, nil
	}
	if err := jsonx.CheckDepth(data, jsonx.MaxDepth); err != nil {
		return nil, err
	}
	if !gjson.ValidBytes(data) {
		return nil, errors.New("mcp config: invalid JSON")
	}
	doc := gjson.ParseBytes(data)
	if !doc.IsObject() {
		return nil, errors.New("mcp config: want a JSON object")
	}
	servers := doc
	for _, key := range []string{"mcpServers", "servers", "mcp"} {
		if v := doc.Get(key); v.Exists() {
			servers = v
			break
		}
	}
	if !servers.IsObject() {
		return nil, errors.New("mcp config: the server list must be an object of name ⇒ server")
	}
	var out []tool.MCPServerConfig
	var err error
	servers.ForEach(func(name, s gjson.Result) bool {
		var cfg tool.MCPServerConfig
		if cfg, err = parseMCPServer(name.String(), s); err != nil {
			return false
		}
		out = append(out, cfg)
		return true
	})
	return out, err
}

func parseMCPServer(name string, s gjson.Result) (tool.MCPServerConfig, error) {
	cfg := tool.MCPServerConfig{Name: name, TimeoutMs: defaultMCPTimeoutMs}
	if name == "" {
		return cfg, errors.New("mcp config: a server has an empty name")
	}
	if !s.IsObject() {
		return cfg, fmt.Errorf("mcp config: server %q: want an object", name)
	}
	cfg.URL = strings.TrimSpace(s.Get("url").String())
	typ := strings.ToLower(s.Get("type").String())
	switch typ {
	case "local", "stdio":
	case "", "remote", "http", "streamable-http", "streamablehttp", "streamable_http":
		cfg.Remote = cfg.URL != "" || typ != ""
	case "sse":
		cfg.Remote, cfg.LegacySSE = true, true
	default:
		return cfg, fmt.Errorf("mcp config: server %q: unknown type %q", name, typ)
	}
	if s.Get("command").Exists() && cfg.URL == "" {
		cfg.Remote = false
	}
	if t := s.Get("timeout"); t.Exists() {
		if t.Type != gjson.Number || t.Int() <= 0 {
			return cfg, fmt.Errorf("mcp config: server %q: timeout must be a positive number of milliseconds", name)
		}
		cfg.TimeoutMs = int(t.Int())
	}
	cfg.Disabled = s.Get("disabled").Bool() || (s.Get("enabled").Exists() && !s.Get("enabled").Bool())
	var err error
	if cfg.Approval, err = parseMCPApproval(name, s.Get("approval")); err != nil {
		return cfg, err
	}
	if f := s.Get("tools"); f.Exists() {
		if !f.IsObject() {
			return cfg, fmt.Errorf("mcp config: server %q: tools must be an object of tool names to true or false", name)
		}
		cfg.ToolFilter = map[string]bool{}
		f.ForEach(func(k, v gjson.Result) bool {
			cfg.ToolFilter[k.String()] = v.Bool()
			return true
		})
	}
	if h := s.Get("headers"); h.Exists() {
		if !h.IsObject() {
			return cfg, fmt.Errorf("mcp config: server %q: headers must be an object", name)
		}
		cfg.Headers = map[string]string{}
		h.ForEach(func(k, v gjson.Result) bool {
			cfg.Headers[strings.ToLower(k.String())] = v.String()
			return true
		})
	}
	return cfg, nil
}

// sanitizeToolPart replaces every character outside [a-zA-Z0-9_-] with '_'.
func sanitizeToolPart(s string) string {
	return strings.Map(func(c rune) rune {
		if c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			return c
		}
		return '_'
	}, s)
}

// mcpToolName is sanitize(server)_sanitize(tool), cut to the providers'
// 64-character limit.
func mcpToolName(server, tool string) string {
	n := sanitizeToolPart(server) + "_" + sanitizeToolPart(tool)
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}
