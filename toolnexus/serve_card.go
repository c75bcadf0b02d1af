package toolnexus

// A2AProvider names the organization that publishes an agent.
type A2AProvider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

// A2AConfig is Serve's A2A profile: what the agent card says, and where
// tasks are kept.
type A2AConfig struct {
	Name        string       `json:"name,omitempty"`
	Description string       `json:"description,omitempty"`
	Version     string       `json:"version,omitempty"`
	Provider    *A2AProvider `json:"provider,omitempty"`
	// Skills are the toolkit's skills the card advertises, by name: nil
	// is all of them, an empty list none.
	Skills []string `json:"skills,omitempty"`
	// Store is "memory" (the default), "file:<dir>" or a TaskStore.
	Store any `json:"store,omitempty"`
}

// AgentCardCapabilities is the capabilities block of a served card.
type AgentCardCapabilities struct {
	Streaming         bool `json:"streaming"`
	PushNotifications bool `json:"pushNotifications"`
}

// AgentCardSkill is one skill on a served card; all three keys are always
// written.
type AgentCardSkill struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// ServedAgentCard is the card Serve publishes, in the Go port's field
// order, with every key written (description "" included) and the
// provider only when set.
type ServedAgentCard struct {
	Name               string                `json:"name"`
	Description        string                `json:"description"`
	Version            string                `json:"version"`
	ProtocolVersion    string                `json:"protocolVersion"`
	Capabilities       AgentCardCapabilities `json:"capabilities"`
	DefaultInputModes  []string              `json:"defaultInputModes"`
	DefaultOutputModes []string              `json:"defaultOutputModes"`
	Skills             []AgentCardSkill      `json:"skills"`
	URL                string                `json:"url"`
	Provider           *A2AProvider          `json:"provider,omitempty"`
}

// BuildAgentCard is the card of a served toolkit: its skills (never its
// raw tools), those cfg.Skills names when it is not nil, with url as the
// JSON-RPC endpoint. Name defaults to "toolnexus-agent", version to
// "0.1.0"; the protocol version is "0.3.0" and the card claims no
// streaming and no push notifications, as the Go port's.
func BuildAgentCard(cfg *A2AConfig, skills []SkillInfo, url string) ServedAgentCard {
	card := ServedAgentCard{Name: "toolnexus-agent", Version: "0.1.0", ProtocolVersion: "0.3.0",
		DefaultInputModes: []string{"text"}, DefaultOutputModes: []string{"text"}, Skills: []AgentCardSkill{}, URL: url}
	var wanted map[string]bool
	if cfg != nil {
		if cfg.Name != "" {
			card.Name = cfg.Name
		}
		if cfg.Version != "" {
			card.Version = cfg.Version
		}
		card.Description, card.Provider = cfg.Description, cfg.Provider
		if cfg.Skills != nil {
			wanted = map[string]bool{}
			for _, n := range cfg.Skills {
				wanted[n] = true
			}
		}
	}
	for _, s := range skills {
		if wanted == nil || wanted[s.Name] {
			card.Skills = append(card.Skills, AgentCardSkill{ID: s.Name, Name: s.Name, Description: s.Description})
		}
	}
	return card
}
