package toolnexus

import (
	"context"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/tool"
)

// The Go port's MCP loading without a toolkit: LoadMcp, LoadMcpWithContext
// and ListMcpTools. Core's own way is Options.MCP on CreateToolkit.

// McpSource is what LoadMcp connected: the tools of every connected
// server (named <server>_<tool>, each server's "tools" filter applied)
// and each server's state. Close ends the sessions.
type McpSource struct {
	Tools  []core.Tool
	Status map[string]McpStatus
	tk     *Toolkit
}

// Close ends every MCP session of the source.
func (m *McpSource) Close() {
	if m != nil && m.tk != nil {
		m.tk.Close()
	}
}

// McpInventory is what ListMcpTools found: each connected server's tools
// as listed (before its "tools" filter) and each server's state.
type McpInventory struct {
	Tools  map[string][]ToolInfo `json:"tools"`
	Status map[string]McpStatus  `json:"status"`
}

// LoadMcp connects every enabled server of an MCP configuration (a path,
// JSON bytes, an McpConfig or a decoded map, as ParseMcpConfig takes) and
// returns their tools. A server that fails is StatusFailed, not an error.
// waitFor, when given, answers the servers' elicitation requests.
func LoadMcp(input any, waitFor ...func(core.Request) (core.Answer, error)) (*McpSource, error) {
	return LoadMcpWithContext(context.Background(), input, waitFor...)
}

// LoadMcpWithContext is LoadMcp bounded by ctx: when ctx ends during the
// load, the sessions are closed and its error returned.
func LoadMcpWithContext(ctx context.Context, input any, waitFor ...func(core.Request) (core.Answer, error)) (*McpSource, error) {
	ctx = orBackground(ctx)
	opts := Options{Builtins: false, McpConfig: input}
	if len(waitFor) > 0 {
		opts.WaitFor = waitFor[0]
	}
	tk, err := CreateToolkit(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		tk.Close()
		return nil, err
	}
	return &McpSource{Tools: tk.Tools(), Status: tk.McpStatus(), tk: tk}, nil
}

// ListMcpTools connects every enabled server of an MCP configuration,
// lists its tools and closes the sessions: no toolkit is made. A server
// that fails is StatusFailed, not an error.
func ListMcpTools(ctx context.Context, input any) (*McpInventory, error) {
	ctx = orBackground(ctx)
	data, err := mcpConfigBytes(input)
	if err != nil {
		return nil, err
	}
	inv := &McpInventory{Tools: map[string][]ToolInfo{}, Status: map[string]McpStatus{}}
	if len(data) == 0 {
		return inv, nil
	}
	p := tool.MCP()
	if p == nil {
		return nil, core.ErrMCPNotLinked
	}
	cfgs, err := p.Parse(data)
	if err != nil {
		return nil, err
	}
	sessions := p.Connect(ctx, cfgs, tool.MCPEnv{Transport: core.DefaultTransport(),
		Fill: fillFromEnvironment})
	for _, s := range sessions {
		st := s.Status().Status
		inv.Status[s.Name()] = McpStatus(st)
		if l, ok := s.(interface{ Listed() []ToolInfo }); ok && st == core.MCPConnected {
			inv.Tools[s.Name()] = l.Listed()
		}
		s.Close()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return inv, nil
}
