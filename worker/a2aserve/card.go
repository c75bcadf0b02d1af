package a2aserve

import (
	"strings"

	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

// CardName is the agent card's name: an A2A client names the tools it
// makes of the card's skills after it (toolnexus_agent, toolnexus_support).
const CardName = "toolnexus"

// DefaultSkill is the skill of the Worker's own agent (SYSTEM_PROMPT and
// its tools); a message that names no skill runs it. A team agent of
// AGENTS named "agent" takes the id instead.
const DefaultSkill = "agent"

// serveCard is GET /.well-known/agent-card.json: the A2A 1.0 agent card
// of the Worker's agent and of each agent AGENTS declares. It is behind
// API_TOKEN like the tool list (GET /v1/tools), since it names the same
// tools; with API_TOKEN set it declares the bearer scheme.
func serveCard(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	cfg, ok := h.RequestConfig(w)
	if !ok {
		return
	}
	tk, ok := h.RequestToolkit(r.Context(), w, "")
	if !ok {
		return
	}
	var tools []string
	for _, t := range tk.Tools() {
		tools = append(tools, t.Name)
	}
	tk.Close()
	teams := teamList(h)
	var skills []string
	if !shadowed(teams) {
		desc := "Runs your message through this agent"
		if len(tools) > 0 {
			desc += " and its tools (" + strings.Join(tools, ", ") + ")"
		}
		skills = append(skills, skill(DefaultSkill, desc+". A call that needs a person's approval stops the task in input-required until it is answered.", `["agent"]`))
	}
	for _, d := range teams {
		desc := d.Does
		if desc == "" {
			desc = "the agent " + d.Name
		}
		if len(d.Team) > 0 {
			desc += "; it hands work to " + strings.Join(d.Team, ", ")
		}
		skills = append(skills, skill(d.Name, desc+". Name it in the message's metadata (\"skill\": \""+d.Name+"\"); an approval any agent of its team needs stops the task in input-required.", `["agent","team"]`))
	}
	security := ""
	if cfg.APIToken != "" {
		security = `,"securitySchemes":{"bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer","description":"the Worker's API_TOKEN"}}},"securityRequirements":[{"schemes":{"bearer":{"list":[]}}}]`
	}
	card := `{"name":` + q(CardName) + `,"description":"An agent on a toolnexus Worker. Each task is a durable run; a tool call that needs approval puts the task in input-required with the request (tool, exact arguments, approveURL) in a data part, answered by a message or through the link.","version":"1.0.0",` +
		`"supportedInterfaces":[{"url":` + q(worker.OriginOf(r)+RPCRoute) + `,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` +
		`"capabilities":{"streaming":true,"pushNotifications":false,"extendedAgentCard":false},` +
		`"defaultInputModes":["text/plain","application/json"],"defaultOutputModes":["text/plain","application/json"],` +
		`"skills":[` + strings.Join(skills, ",") + `]` + security + `}`
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(httpx.StatusOK)
	w.Write([]byte(card))
}

// skill is one skill of the card.
func skill(id, description, tags string) string {
	return `{"id":` + q(id) + `,"name":` + q(id) + `,"description":` + q(description) + `,"tags":` + tags + `}`
}

// shadowed reports whether a team agent takes DefaultSkill's id.
func shadowed(teams []worker.AgentDecl) bool {
	for _, d := range teams {
		if d.Name == DefaultSkill {
			return true
		}
	}
	return false
}

// teamList is the AGENTS declaration when this build runs teams (none
// when it does not, or when AGENTS does not parse: RequestConfig has
// refused that already).
func teamList(h *worker.Handler) []worker.AgentDecl {
	if !h.TeamsMounted() {
		return nil
	}
	decls, err := worker.ParseAgents(h.Options().Getenv(worker.AgentsSetting), nil)
	if err != nil {
		return nil
	}
	return decls
}
