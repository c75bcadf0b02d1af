package toolnexus

import (
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/mcpserve"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// MCPServeConfig is Serve's MCP profile: the toolkit's tools as an MCP
// server at /mcp.
type MCPServeConfig struct {
	// Name and Version are initialize's serverInfo (default "toolnexus",
	// "0.1.0").
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	// Tools are the tools offered, by name: nil is all; a name the toolkit
	// does not have is ignored.
	Tools []string `json:"tools,omitempty"`
}

// OnCallEvent is what OnCall hears after each tools/call.
type OnCallEvent struct {
	Name    string
	Source  core.ToolSource
	Ms      int64
	IsError bool
}

// OnCall is called after each MCP tools/call; a panic in it is dropped.
type OnCall func(ev OnCallEvent)

// maxMCPBody bounds one POST /mcp.
const maxMCPBody = 4 << 20

// ExposedMcpTools is the tools the MCP profile offers: all of tools, or
// those cfg.Tools names (in tools' order; unknown names are ignored).
func ExposedMcpTools(tools []core.Tool, cfg *MCPServeConfig) []core.Tool {
	if cfg == nil || cfg.Tools == nil {
		return tools
	}
	out := make([]core.Tool, 0, len(tools))
	for _, t := range tools {
		if exposed(cfg, t) {
			out = append(out, t)
		}
	}
	return out
}

func exposed(cfg *MCPServeConfig, t core.Tool) bool {
	if cfg == nil || cfg.Tools == nil {
		return true
	}
	for _, n := range cfg.Tools {
		if n == t.Name {
			return true
		}
	}
	return false
}

// mcpProfile is the MCP server of this repository (internal/mcpserve, the
// Worker's POST /mcp) over the toolkit: a tool that needs approval asks
// the client by elicitation, its answer travelling through memory.
func (s *serveHandler) mcpProfile() *mcpserve.Server {
	cfg := s.mcp
	srv := &mcpserve.Server{Name: "toolnexus", Version: "0.1.0",
		Toolkit: func(context.Context) (*core.Toolkit, func(), error) { return coreToolkit(s.tk), func() {}, nil },
		Expose:  func(t core.Tool) bool { return exposed(cfg, t) },
	}
	if cfg.Name != "" {
		srv.Name = cfg.Name
	}
	if cfg.Version != "" {
		srv.Version = cfg.Version
	}
	box := &memoryMailbox{m: map[string][]byte{}}
	srv.Mailbox = func() mcpserve.Mailbox { return box }
	if s.onCall != nil {
		srv.OnCall = func(ev mcpserve.CallEvent) {
			s.onCall(OnCallEvent{Name: ev.Name, Source: ev.Source, Ms: ev.Duration.Milliseconds(), IsError: ev.IsError})
		}
	}
	return srv
}

// serveMCP answers /mcp: POST to the MCP server, DELETE (a client ending
// its session; none is kept) with 204, anything else 405.
func (s *serveHandler) serveMCP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		body, err := io.ReadAll(io.LimitReader(r.Body, maxMCPBody+1))
		if err != nil || len(body) > maxMCPBody {
			w.Header().Set("content-type", "application/json")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the body is over 4 MiB"}}`)
			return
		}
		s.mcpServer.Handle(nethttp.Writer(w), nethttp.Request(r), body)
	case http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "POST, DELETE")
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// memoryMailbox carries elicitation answers within the process, at most
// 256 at a time (an answer nobody waits for any more is dropped).
type memoryMailbox struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (b *memoryMailbox) Put(_ context.Context, key string, value []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.m) >= 256 {
		b.m = map[string][]byte{}
	}
	b.m[key] = value
	return nil
}

func (b *memoryMailbox) Take(_ context.Context, key string) ([]byte, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[key]
	delete(b.m, key)
	return v, ok, nil
}
