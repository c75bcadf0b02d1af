package core

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"

	"github.com/toolnexus/wasm/core/tool"
)

// The MCP client lives in package core/mcp, which registers itself with
// core/tool when a program imports it; its types live in core/tool.

// MCPStatus is one configured MCP server's state, as MCPServers reports it.
type MCPStatus = tool.MCPStatus

// The values of MCPStatus.Status.
const (
	MCPConnected = tool.MCPConnected
	MCPDisabled  = tool.MCPDisabled
	MCPFailed    = tool.MCPFailed
)

// SourceMCP marks tools that come from a remote MCP server.
const SourceMCP = tool.SourceMCP

// MCPServerConfig is one server of an MCP configuration.
type MCPServerConfig = tool.MCPServerConfig

// MCPApproval is a server's approval policy.
type MCPApproval = tool.MCPApproval

// The values of MCPApproval.Mode.
const (
	MCPApproveUnlessReadOnly = tool.MCPApproveUnlessReadOnly
	MCPApproveAlways         = tool.MCPApproveAlways
	MCPApproveNever          = tool.MCPApproveNever
	MCPApproveDestructive    = tool.MCPApproveDestructive
	MCPApproveListed         = tool.MCPApproveListed
)

// ErrMCPNotLinked is the error of ParseMCPConfig and CreateToolkit when a
// program gives an MCP configuration without importing core/mcp.
var ErrMCPNotLinked = errors.New(`core: MCP not linked: import _ "github.com/toolnexus/wasm/core/mcp"`)

// MCPLinked reports whether the program links the MCP client (imports
// core/mcp).
func MCPLinked() bool { return tool.MCP() != nil }

// ParseMCPConfig reads an MCP configuration in the shape of Claude
// desktop's config file (see core/mcp.Parse).
func ParseMCPConfig(data []byte) ([]MCPServerConfig, error) {
	p := tool.MCP()
	if p == nil {
		return nil, ErrMCPNotLinked
	}
	cfgs, err := p.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("core: %w", err)
	}
	return cfgs, nil
}

// mcpServer is one configured server in a toolkit: its session, and its
// status with the count of its tools the toolkit took.
type mcpServer struct {
	session tool.MCPServer
	status  MCPStatus
}

// addMCP connects the servers of opts.MCP in parallel and registers their
// tools after the ones already there, in configuration order. Only an
// invalid configuration is an error: a server that fails is reported by
// McpStatus and the toolkit builds without it.
func (tk *Toolkit) addMCP(ctx context.Context, opts Options) error {
	if len(opts.MCP) == 0 {
		return nil
	}
	p := tool.MCP()
	if p == nil {
		return ErrMCPNotLinked
	}
	cfgs, err := p.Parse(opts.MCP)
	if err != nil || len(cfgs) == 0 {
		return err
	}
	waitFor := opts.WaitForContext
	if waitFor == nil && opts.WaitFor != nil {
		waitFor = func(_ context.Context, r Request) (Answer, error) { return opts.WaitFor(r) }
	}
	tr := opts.Transport
	if tr == nil {
		tr = DefaultTransport()
	}
	sessions := p.Connect(ctx, cfgs, tool.MCPEnv{
		Transport: tr,
		Fill:      func(v string) (string, error) { return tool.FillVariables(v, opts.Variables, nil) },
		WaitFor:   waitFor,
	})
	servers := make([]*mcpServer, len(sessions))
	for i, s := range sessions {
		added := 0
		for _, t := range s.Tools() {
			if _, dup := tk.Get(t.Name); dup {
				continue
			}
			if tk.Register(t) == nil {
				added++
			}
		}
		servers[i] = &mcpServer{session: s, status: s.Status()}
		if servers[i].status.Status == MCPConnected {
			servers[i].status.Tools = added
		}
	}
	tk.mu.Lock()
	tk.mcp = append(tk.mcp, servers...)
	tk.mu.Unlock()
	return nil
}

// MCPServers reports each configured MCP server by name: "connected" (with
// its tool count and transport), "disabled", or "failed" with the reason.
//
//	tk, _ := CreateToolkit(ctx, Options{MCP: []byte(`{"mcpServers": {"docs": {"url": "https://example.com/mcp"}}}`)})
//	tk.MCPServers() // {"docs": {Status: "connected", Tools: 3, Transport: "streamable-http"}}
func (tk *Toolkit) MCPServers() map[string]MCPStatus {
	out := map[string]MCPStatus{}
	if tk == nil {
		return out
	}
	tk.mu.RLock()
	defer tk.mu.RUnlock()
	for _, s := range tk.mcp {
		out[s.session.Name()] = s.status
	}
	return out
}

// closeMCP ends every MCP session, in parallel, each bounded by its
// server's timeout.
func (tk *Toolkit) closeMCP() {
	tk.mu.RLock()
	servers := tk.mcp
	tk.mu.RUnlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { _ = recover() }()
			s.session.Close()
		}()
	}
	wg.Wait()
}
