package tool

import "context"

// The A2A client (calling remote Agent2Agent agents as tools) lives in
// package core/a2a; these are the types its hosts see, and the seam it
// registers, so that a host (the JS bridge, the Worker) offers A2A agents
// only in the builds whose main imports core/a2a.

// SourceA2A marks the tools of a remote A2A agent: one per skill on its
// agent card.
const SourceA2A ToolSource = "a2a"

// A2AAgent is one remote agent of an A2A configuration (see core/a2a.Parse).
type A2AAgent struct {
	// Name is the agent's key in the configuration (an identifier only:
	// tool names start with the name on the agent's card).
	Name string
	// Card is the URL of the agent card
	// (https://…/.well-known/agent-card.json).
	Card string
	// URL is the agent's JSON-RPC endpoint when the configuration names
	// it; empty: the one its card names (see core/a2a.Tools).
	URL string
	// Headers are sent with every request to the agent; values may use
	// ${NAME}, filled by A2AEnv.Fill when a request is made.
	Headers map[string]string
	// TimeoutMs bounds one call of one of the agent's tools, from the first
	// request to the task's end (a person's answer to the agent's question
	// starts a new budget). Default 300000.
	TimeoutMs int
	// PollEveryMs is the pause between GetTask requests while a task runs
	// on after a reply. Default 1000.
	PollEveryMs int
	// Disabled agents are reported with status "disabled" and not
	// contacted.
	Disabled bool
}

// A2AStatus is one configured agent's state after its card was fetched.
type A2AStatus struct {
	// Status is "connected", "disabled" or "failed" (the MCP values).
	Status string `json:"status"`
	// Reason says why an agent failed. It never holds header values.
	Reason string `json:"reason,omitempty"`
	// Tools counts the agent's tools (its card's skills).
	Tools int `json:"tools"`
	// Card is the name on the agent's card.
	Card string `json:"card,omitempty"`
}

// A2AEnv is what a host hands the A2A client along with the agents.
type A2AEnv struct {
	// Transport carries every request (default DefaultTransport()).
	Transport Transport
	// Fill replaces ${NAME} in a header value; a name it does not know is
	// an error. nil leaves values as written.
	Fill func(string) (string, error)
}

// A2AProvider is what core/a2a registers: its configuration reader, and
// the tools of every configured agent (cards fetched in parallel; an agent
// that fails is reported in the status map, by configuration name, and
// adds no tools).
type A2AProvider struct {
	Parse func(data []byte) ([]A2AAgent, error)
	Tools func(ctx context.Context, agents []A2AAgent, env A2AEnv) ([]Tool, map[string]A2AStatus)
}

var a2a *A2AProvider

// RegisterA2A records the A2A client; the last one wins.
func RegisterA2A(p A2AProvider) {
	registryMu.Lock()
	defer registryMu.Unlock()
	a2a = &p
}

// A2A returns the registered A2A client, or nil when no package of the
// program registered one.
func A2A() *A2AProvider {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return a2a
}
