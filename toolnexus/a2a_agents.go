package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"sort"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/core/tool"
)

// The Go port's A2A client API (calling remote agents as tools), over
// core/a2a: the port's wire types, its Agent descriptor and "agents"
// config block, AgentTools and Toolkit.AddAgent.

// A2APart is one content part of a message or artifact. Text is a pointer
// so that a missing text is told apart from an empty one.
type A2APart struct {
	Kind string  `json:"kind"`
	Text *string `json:"text"`
}

// A2AMessage is a role-tagged list of parts.
type A2AMessage struct {
	Role      string    `json:"role"`
	MessageID string    `json:"messageId,omitempty"`
	Parts     []A2APart `json:"parts,omitempty"`
}

// A2AArtifact is an output of a task.
type A2AArtifact struct {
	ArtifactID string    `json:"artifactId,omitempty"`
	Parts      []A2APart `json:"parts,omitempty"`
}

// A2ATaskStatus is a task's state and the agent's message about it.
type A2ATaskStatus struct {
	State   string      `json:"state"`
	Message *A2AMessage `json:"message,omitempty"`
}

// A2ATask is the unit of work SendMessage starts and GetTask reports.
type A2ATask struct {
	ID string `json:"id"`
	// ContextID groups a peer's turns into one conversation.
	ContextID string        `json:"contextId,omitempty"`
	Status    A2ATaskStatus `json:"status"`
	Artifacts []A2AArtifact `json:"artifacts,omitempty"`
	History   []A2AMessage  `json:"history,omitempty"`
}

// A2ASkill is one skill an agent card advertises.
type A2ASkill struct {
	ID          string   `json:"id,omitempty"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Examples    []string `json:"examples,omitempty"`
}

// AgentCard is a remote agent's card (/.well-known/agent-card.json).
type AgentCard struct {
	Name               string         `json:"name"`
	Description        string         `json:"description,omitempty"`
	Version            string         `json:"version,omitempty"`
	ProtocolVersion    string         `json:"protocolVersion,omitempty"`
	Capabilities       map[string]any `json:"capabilities,omitempty"`
	DefaultInputModes  []string       `json:"defaultInputModes,omitempty"`
	DefaultOutputModes []string       `json:"defaultOutputModes,omitempty"`
	Skills             []A2ASkill     `json:"skills,omitempty"`
	// URL is the JSON-RPC endpoint the agent listens on.
	URL string `json:"url,omitempty"`
}

// Agent points at a remote agent's card. ${NAME} in a header value is
// filled from the environment when a request is made (an unset name is an
// error, never an empty token); values are never logged.
type Agent struct {
	Card    string            `json:"card"`
	Headers map[string]string `json:"headers,omitempty"`
	// Timeout bounds one call in ms (default 300000); PollEvery is the
	// pause between GetTask requests in ms (default 1000).
	Timeout   int `json:"timeout,omitempty"`
	PollEvery int `json:"pollEvery,omitempty"`
}

// AgentConfig is one entry of a config's "agents" block.
type AgentConfig struct {
	Card      string            `json:"card"`
	Headers   map[string]string `json:"headers"`
	Timeout   int               `json:"timeout"`
	PollEvery int               `json:"pollEvery"`
	Enabled   *bool             `json:"enabled"`
	Disabled  *bool             `json:"disabled"`
}

// AgentsConfig maps an identifier to an AgentConfig.
type AgentsConfig map[string]AgentConfig

// ParseAgentsConfig turns an "agents" block into Agents, leaving out the
// entries without a card and the disabled ones (disabled: true wins over
// enabled). The keys only identify entries: tool names come from the
// cards. Agents come in the order of their keys.
func ParseAgentsConfig(block AgentsConfig) []Agent {
	keys := make([]string, 0, len(block))
	for k := range block {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Agent
	for _, k := range keys {
		cfg := block[k]
		if cfg.Card == "" || (cfg.Disabled != nil && *cfg.Disabled) || (cfg.Enabled != nil && !*cfg.Enabled) {
			continue
		}
		out = append(out, Agent{Card: cfg.Card, Headers: cfg.Headers, Timeout: cfg.Timeout, PollEvery: cfg.PollEvery})
	}
	return out
}

// AgentTools fetches an agent's card and returns a tool of each of its
// skills (core/a2a): <card name>_<skill id>, source "a2a", whose call
// sends the task and follows it to its end.
func AgentTools(ctx context.Context, ag Agent) ([]core.Tool, error) {
	return agentTools(ctx, ag, nil, nil)
}

// agentTools is AgentTools with the toolkit's transport and variables
// (Options.Transport, Options.Variables over the environment).
func agentTools(ctx context.Context, ag Agent, tr core.Transport, vars map[string]string) ([]core.Tool, error) {
	ctx = orBackground(ctx)
	fill := func(v string) (string, error) { return tool.FillVariables(v, vars, os.LookupEnv) }
	tools, _, err := a2a.AgentTools(ctx, tool.A2AAgent{Name: ag.Card, Card: ag.Card, Headers: ag.Headers,
		TimeoutMs: ag.Timeout, PollEveryMs: ag.PollEvery}, tool.A2AEnv{Transport: tr, Fill: fill})
	if err != nil {
		return nil, fmt.Errorf("a2a agent %s: %w", ag.Card, err)
	}
	return tools, nil
}

// optionAgents is the tools of Options.Agents and of the "agents" block of
// a decoded Options.McpConfig. An agent that fails is logged and left out,
// as in the Go port: it never breaks the toolkit.
func optionAgents(ctx context.Context, opts Options) []core.Tool {
	agents := append([]Agent(nil), opts.Agents...)
	if m, ok := opts.McpConfig.(map[string]any); ok {
		if block, ok := m["agents"]; ok {
			var cfg AgentsConfig
			if b, err := marshalJSON(block); err == nil {
				_ = json.Unmarshal(b, &cfg)
			}
			agents = append(agents, ParseAgentsConfig(cfg)...)
		}
	}
	var out []core.Tool
	for _, ag := range agents {
		tools, err := agentTools(ctx, ag, opts.Transport, opts.Variables)
		if err != nil {
			log.Printf("[toolnexus] A2A agent %q failed: %v", ag.Card, err)
			continue
		}
		out = append(out, tools...)
	}
	return out
}

// AddAgent fetches a remote agent's card and adds a tool of each of its
// skills; a name the toolkit already has keeps its tool. agentOrCardURL is
// an Agent or a card's URL, with opts (may be nil) for its headers,
// timeout and polling.
func (tk *Toolkit) AddAgent(ctx context.Context, agentOrCardURL any, opts *Agent) (*Toolkit, error) {
	var ag Agent
	switch v := agentOrCardURL.(type) {
	case string:
		ag = Agent{Card: v}
		if opts != nil {
			ag.Headers, ag.Timeout, ag.PollEvery = opts.Headers, opts.Timeout, opts.PollEvery
		}
	case Agent:
		ag = v
	default:
		return tk, fmt.Errorf("addAgent: unsupported argument type %T", agentOrCardURL)
	}
	tools, err := AgentTools(ctx, ag)
	if err != nil {
		return tk, err
	}
	for _, t := range tools {
		if _, taken := tk.Get(t.Name); !taken {
			if err := coreToolkit(tk).Register(t); err != nil {
				return tk, err
			}
		}
	}
	return tk, nil
}
