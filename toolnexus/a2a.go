package toolnexus

import "github.com/toolnexus/wasm/core/tool"

// The Go port's A2A (agent to agent) API: remote agents' skills as tools
// (Options.Agents, the "agents" config block, AgentTools,
// Toolkit.AddAgent; core/a2a underneath: a2a_agents.go) and Toolkit.Serve
// with its A2A and MCP profiles (serve*.go; the MCP one is this
// repository's MCP server, the Worker's POST /mcp).

// SourceA2A marks the tools of a remote A2A agent.
const SourceA2A = tool.SourceA2A
