package toolnexus

import (
	"context"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/toolnexus/internal/port"
)

// The Go port's A2A (agent to agent) API: remote agents' skills as tools
// (Options.Agents, the "agents" config block, AgentTools,
// Toolkit.AddAgent; core/a2a underneath) and Toolkit.Serve with its A2A
// and MCP profiles (the MCP one is this repository's MCP server, the
// Worker's POST /mcp).
type (
	A2APart         = port.A2APart
	A2AMessage      = port.A2AMessage
	A2AArtifact     = port.A2AArtifact
	A2ATaskStatus   = port.A2ATaskStatus
	A2ATask         = port.A2ATask
	A2ASkill        = port.A2ASkill
	AgentCard       = port.AgentCard
	Agent           = port.Agent
	AgentConfig     = port.AgentConfig
	AgentsConfig    = port.AgentsConfig
	A2AProvider     = port.A2AProvider
	A2AConfig       = port.A2AConfig
	OnTaskEvent     = port.OnTaskEvent
	OnTask          = port.OnTask
	ServeOptions    = port.ServeOptions
	ServeHandle     = port.ServeHandle
	MCPServeConfig  = port.MCPServeConfig
	OnCallEvent     = port.OnCallEvent
	OnCall          = port.OnCall
	TaskStore       = port.TaskStore
	FileTaskStore   = port.FileTaskStore
	ServedAgentCard = port.ServedAgentCard

	InMemoryTaskStore     = port.InMemoryTaskStore
	AgentCardSkill        = port.AgentCardSkill
	AgentCardCapabilities = port.AgentCardCapabilities
)

// SourceA2A marks the tools of a remote A2A agent.
const SourceA2A = tool.SourceA2A

// ParseAgentsConfig turns an "agents" config block into Agents, leaving
// out the disabled ones and those without a card.
func ParseAgentsConfig(block AgentsConfig) []Agent { return port.ParseAgentsConfig(block) }

// AgentTools fetches an agent's card and returns a tool of each skill.
func AgentTools(ctx context.Context, ag Agent) ([]Tool, error) { return port.AgentTools(ctx, ag) }

// BuildAgentCard is the agent card Serve publishes for skills.
func BuildAgentCard(cfg *A2AConfig, skills []SkillInfo, url string) ServedAgentCard {
	return port.BuildAgentCard(cfg, skills, url)
}

// NewInMemoryTaskStore returns an empty in-memory task store.
func NewInMemoryTaskStore() *InMemoryTaskStore { return port.NewInMemoryTaskStore() }

// NewFileTaskStore returns a task store of one JSON file per task in dir.
func NewFileTaskStore(dir string) *FileTaskStore { return port.NewFileTaskStore(dir) }

// ResolveStore turns A2AConfig.Store into a TaskStore.
func ResolveStore(store any) (TaskStore, error) { return port.ResolveStore(store) }

// ExposedMcpTools is the tools Serve's MCP profile offers.
func ExposedMcpTools(tools []Tool, cfg *MCPServeConfig) []Tool {
	return port.ExposedMcpTools(tools, cfg)
}
