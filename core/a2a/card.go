package a2a

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
)

// card is what the tools need of an agent card.
type card struct {
	name     string // the card's name: every tool name starts with it
	endpoint string // where JSON-RPC goes
	skills   []gjson.Result
}

// fetchCard GETs the agent's card and picks its JSON-RPC endpoint: the
// configured url, else the card's "url" (0.3, the Go port), else its first
// JSONRPC interface (1.0's supportedInterfaces), else the card's origin.
//
// The configured headers (often a bearer token) go to the endpoint too, so
// an endpoint on another origin than the card's is refused when there are
// headers: a card that was tampered with must not collect the token. A
// configuration that trusts such an endpoint names it in "url".
func fetchCard(ctx context.Context, ag tool.A2AAgent, c conn) (card, error) {
	budget := min(ag.TimeoutMs, cardTimeoutMs)
	if budget <= 0 {
		budget = cardTimeoutMs
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(budget)*time.Millisecond)
	defer cancel()
	doc, err := c.fetch(ctx, "GET", ag.Card, nil, "accept", "application/json")
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return card{}, fmt.Errorf("agent card: timed out after %d ms", budget)
		}
		return card{}, fmt.Errorf("agent card: %w", err)
	}
	if !doc.IsObject() {
		return card{}, errors.New("agent card: not a JSON object")
	}
	out := card{name: doc.Get("name").String(), endpoint: ag.URL, skills: doc.Get("skills").Array()}
	if out.name == "" {
		out.name = "agent"
	}
	if out.endpoint == "" {
		out.endpoint = cardEndpoint(doc, ag.Card)
		if len(ag.Headers) > 0 && origin(out.endpoint) != origin(ag.Card) {
			return card{}, fmt.Errorf("agent card: its endpoint %s is on another origin than the card, and the agent's headers go only to the card's origin (name the endpoint in the agent's \"url\" to trust it)", out.endpoint)
		}
	}
	if !tool.IsHTTPURL(out.endpoint) {
		return card{}, fmt.Errorf("agent card: no http(s) JSON-RPC endpoint (url %q)", out.endpoint)
	}
	return out, nil
}

// cardEndpoint is the JSON-RPC endpoint a card names (see fetchCard).
func cardEndpoint(doc gjson.Result, cardURL string) string {
	if u := doc.Get("url").String(); u != "" {
		return u
	}
	for _, iface := range doc.Get("supportedInterfaces").Array() {
		if strings.EqualFold(iface.Get("protocolBinding").String(), "JSONRPC") && iface.Get("url").String() != "" {
			return iface.Get("url").String()
		}
	}
	return origin(cardURL)
}

// origin is scheme://host[:port] of an absolute URL, lower-cased.
func origin(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	rest := u[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	return strings.ToLower(u[:i+3] + rest)
}

// taskSchema is every A2A tool's input: the task, in words.
func taskSchema() tool.JSONSchema {
	return tool.JSONSchema{
		"type": "object",
		"properties": map[string]any{
			"task": map[string]any{"type": "string", "description": "What to ask the agent to do, in plain words."},
		},
		"required":             []string{"task"},
		"additionalProperties": false,
	}
}

// skillTools makes a tool of each of the card's skills, named
// <card name>_<skill id> (sanitized, at most 64 characters).
func skillTools(ag tool.A2AAgent, cd card, c conn) []tool.Tool {
	out := make([]tool.Tool, 0, len(cd.skills))
	for _, s := range cd.skills {
		id := s.Get("id").String()
		if id == "" {
			id = s.Get("name").String()
		}
		desc := s.Get("description").String()
		if desc == "" {
			desc = s.Get("name").String()
		}
		if desc == "" {
			desc = id
		}
		name := sanitize(cd.name) + "_" + sanitize(id)
		if len(name) > 64 {
			name = name[:64]
		}
		call := &skillCall{agent: ag, conn: c, agentName: cd.name, endpoint: cd.endpoint, skill: id}
		out = append(out, tool.Tool{Name: name, Description: desc, InputSchema: taskSchema(), Source: tool.SourceA2A,
			RunsOnDecline: true, Execute: call.execute})
	}
	return out
}

// sanitize replaces every character outside [a-zA-Z0-9_-] with '_', as
// tool names need (the Go port's Sanitize).
func sanitize(s string) string {
	return strings.Map(func(c rune) rune {
		if c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			return c
		}
		return '_'
	}, s)
}
