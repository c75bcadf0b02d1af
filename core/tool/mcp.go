package tool

import "context"

// The MCP client lives in package core/mcp; these are the types core and
// its programs see (core re-exports each), and the seam core/mcp registers.

// MCPStatus is one configured MCP server's state, as McpStatus reports it.
type MCPStatus struct {
	// Status is "connected", "disabled" or "failed".
	Status string `json:"status"`
	// Reason says why a server failed. It never holds header values.
	Reason string `json:"reason,omitempty"`
	// Tools counts the server's tools added to the toolkit.
	Tools int `json:"tools"`
	// Transport is "streamable-http" or "sse" (the older HTTP+SSE) once
	// connected.
	Transport string `json:"transport,omitempty"`
	// Hidden names the server's tools not offered to the model: those that
	// require task augmentation (execution.taskSupport "required").
	Hidden []string `json:"hidden,omitempty"`
}

// The values of MCPStatus.Status.
const (
	MCPConnected = "connected"
	MCPDisabled  = "disabled"
	MCPFailed    = "failed"
)

// SourceMCP marks tools that come from a remote MCP server.
const SourceMCP ToolSource = "mcp"

// MCPServerConfig is one server of an MCP configuration, in the shape of
// Claude desktop's config file (see ParseMCPConfig).
type MCPServerConfig struct {
	// Name is the server's key in the configuration; tool names start with
	// its sanitized form.
	Name string
	// Remote is true for servers reached over HTTP (a url, or type
	// "remote", "http", "streamable-http" or "sse"); false for local (stdio)
	// servers, which this runtime reports as failed.
	Remote bool
	// URL is the MCP endpoint. LegacySSE (type "sse") starts with the older
	// HTTP+SSE transport instead of trying streamable HTTP first.
	URL       string
	LegacySSE bool
	// Headers are sent on every request; values may use ${NAME}, filled from
	// Options.Variables only.
	Headers map[string]string
	// TimeoutMs bounds each phase (connect, initialize, list) and each tool
	// call without a deadline of its own. Default 30000.
	TimeoutMs int
	// Disabled servers are listed with status "disabled" and not contacted.
	Disabled bool
	// ToolFilter (the "tools" key) picks the server's tools by their own
	// names, the Go port's way (AllowedByFilter): {"a": true} keeps only
	// a, {"b": false} drops b.
	ToolFilter map[string]bool
	// Approval says which of the server's tools need a person's approval
	// (the "approval" key; see MCPApproval). The default asks for every
	// tool not annotated readOnlyHint: true.
	Approval MCPApproval
}

// MCPApproval is a server's approval policy: which of its tools suspend for
// a person's approval before they run (Tool.NeedsApproval). Set it with the
// server's "approval" key:
//
//	(absent)        ⇒ MCPApproveUnlessReadOnly: ask unless the tool says readOnlyHint: true
//	"always"        ⇒ every tool of the server asks
//	"never"         ⇒ no tool of the server asks
//	"destructive"   ⇒ ask unless readOnlyHint: true or destructiveHint: false
//	["a", "b"]      ⇒ exactly the tools named ask (the server's names, or the
//	                  toolkit's <server>_<tool> names)
//
// Whatever the mode, destructiveHint: true asks except under "never" and a
// list. Annotations are the server's own claims (hints, in the protocol's
// words): for a server you do not trust, use "always" or a list.
type MCPApproval struct {
	// Mode is one of the MCPApprove… constants; "" means the default.
	Mode string
	// Tools are the server's tool names that need approval, with
	// Mode MCPApproveListed.
	Tools []string
}

// The values of MCPApproval.Mode.
const (
	MCPApproveUnlessReadOnly = ""            // the default
	MCPApproveAlways         = "always"      // every tool
	MCPApproveNever          = "never"       // no tool
	MCPApproveDestructive    = "destructive" // tools that may destroy
	MCPApproveListed         = "tools"       // the tools in MCPApproval.Tools
)

// MCPEnv is what core hands the MCP client along with the configuration.
type MCPEnv struct {
	// Transport carries every MCP request.
	Transport Transport
	// Fill replaces ${NAME} in a header value (from Options.Variables
	// only); a name it does not know is an error.
	Fill func(string) (string, error)
	// WaitFor answers the servers' elicitation requests; nil declines them.
	WaitFor func(context.Context, Request) (Answer, error)
}

// MCPToolInfo is one tool as a server lists it: its own name, its
// description and its input schema.
type MCPToolInfo struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	InputSchema JSONSchema `json:"inputSchema"`
}

// MCPServer is one configured server's session.
type MCPServer interface {
	// Name is the server's key in the configuration.
	Name() string
	// Tools are the server's tools for the toolkit (none unless connected).
	Tools() []Tool
	// Status is the server's state; core sets Tools to the number of its
	// tools the toolkit took.
	Status() MCPStatus
	// Close ends the session; safe to call twice.
	Close()
}

// MCPProvider is what core/mcp registers: its configuration reader and
// the connection of every configured server (in parallel; a server that
// fails is reported by its Status, not as an error).
type MCPProvider struct {
	Parse   func(data []byte) ([]MCPServerConfig, error)
	Connect func(ctx context.Context, cfgs []MCPServerConfig, env MCPEnv) []MCPServer
}

var mcp *MCPProvider

// RegisterMCP records the MCP client; the last one wins.
func RegisterMCP(p MCPProvider) {
	registryMu.Lock()
	defer registryMu.Unlock()
	mcp = &p
}

// MCP returns the registered MCP client, or nil.
func MCP() *MCPProvider {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return mcp
}
