package toolnexus

import (
	"fmt"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// The Go port's MCP configuration API. Core's own is ParseMCPConfig over
// JSON bytes (its servers in document order) and Options.MCP.

// ServerConfig is one MCP server entry in the Go port's shape. Core
// connects to remote servers (URL) only: a local (Command) server is
// reported as failed, as is any process a sandbox cannot start.
type ServerConfig struct {
	Type        string            `json:"type,omitempty"`
	Command     []string          `json:"command,omitempty"`
	Environment map[string]string `json:"environment,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Cwd         string            `json:"cwd,omitempty"`
	URL         string            `json:"url,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"`
	Enabled     *bool             `json:"enabled,omitempty"`
	Disabled    *bool             `json:"disabled,omitempty"`
	Timeout     int               `json:"timeout,omitempty"`
	Tools       map[string]bool   `json:"tools,omitempty"`
}

// McpConfig maps server names to their configuration.
type McpConfig map[string]ServerConfig

// ParseMcpConfig reads an MCP configuration as the Go port's does: input is
// a file path, JSON bytes, an McpConfig, or a decoded map; the servers may
// sit under "mcpServers", "servers" or "mcp", or be the whole object.
func ParseMcpConfig(input any) (McpConfig, error) {
	data, err := mcpConfigBytes(input)
	if err != nil {
		return nil, err
	}
	if cfg, ok := input.(McpConfig); ok {
		return cfg, nil
	}
	if err := jsonx.CheckDepth(data, jsonx.MaxDepth); err != nil {
		return nil, fmt.Errorf("parse mcp config: %w", err)
	}
	if !gjson.ValidBytes(data) || !gjson.ParseBytes(data).IsObject() {
		return nil, fmt.Errorf("parse mcp config: not a JSON object")
	}
	doc := gjson.ParseBytes(data)
	servers := doc
	for _, key := range []string{"mcpServers", "servers", "mcp"} {
		if v := doc.Get(key); v.Exists() {
			servers = v
			break
		}
	}
	out := McpConfig{}
	servers.ForEach(func(name, s gjson.Result) bool {
		out[name.String()] = serverConfigOf(s)
		return true
	})
	return out, nil
}

func serverConfigOf(s gjson.Result) ServerConfig {
	c := ServerConfig{Type: s.Get("type").String(), Cwd: s.Get("cwd").String(), URL: s.Get("url").String(), Timeout: int(s.Get("timeout").Int())}
	for _, a := range s.Get("command").Array() {
		c.Command = append(c.Command, a.String())
	}
	c.Environment, c.Env, c.Headers = stringMap(s.Get("environment")), stringMap(s.Get("env")), stringMap(s.Get("headers"))
	if v := s.Get("enabled"); v.IsBool() {
		b := v.Bool()
		c.Enabled = &b
	}
	if v := s.Get("disabled"); v.IsBool() {
		b := v.Bool()
		c.Disabled = &b
	}
	s.Get("tools").ForEach(func(k, v gjson.Result) bool {
		if c.Tools == nil {
			c.Tools = map[string]bool{}
		}
		c.Tools[k.String()] = v.Bool()
		return true
	})
	return c
}

func stringMap(v gjson.Result) map[string]string {
	if !v.IsObject() {
		return nil
	}
	out := map[string]string{}
	v.ForEach(func(k, x gjson.Result) bool {
		out[k.String()] = x.String()
		return true
	})
	return out
}

// mcpConfigBytes turns Options.McpConfig (or ParseMcpConfig's input) into
// the JSON core's MCP loader reads.
func mcpConfigBytes(input any) ([]byte, error) {
	switch v := input.(type) {
	case nil:
		return nil, nil
	case string:
		files := tool.Files()
		if files == nil {
			return nil, fmt.Errorf("read mcp config %s: %w", v, ErrNoHostFiles)
		}
		data, err := files.ReadFile(v)
		if err != nil {
			return nil, fmt.Errorf("read mcp config: %w", err)
		}
		return withoutReserved(data), nil
	case []byte:
		return withoutReserved(v), nil
	case McpConfig:
		return marshalJSON(map[string]any{"mcpServers": map[string]ServerConfig(v)})
	case map[string]any:
		data, err := marshalJSON(v)
		return withoutReserved(data), err
	}
	return nil, fmt.Errorf("unsupported mcp config type: %T", input)
}

// McpStatus is a server's connection state in the Go port's shape: only
// the state (MCPServers has the reason, tool count and transport too).
type McpStatus string

// The McpStatus values.
const (
	StatusConnected McpStatus = core.MCPConnected
	StatusDisabled  McpStatus = core.MCPDisabled
	StatusFailed    McpStatus = core.MCPFailed
)

// McpStatus reports each configured MCP server's state by name, as the Go
// port's does.
func (tk *Toolkit) McpStatus() map[string]McpStatus {
	out := map[string]McpStatus{}
	for name, st := range tk.MCPServers() {
		out[name] = McpStatus(st.Status)
	}
	return out
}
