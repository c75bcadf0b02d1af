package a2a

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

const (
	defaultTimeoutMs   = 300_000
	defaultPollEveryMs = 1_000
	// cardTimeoutMs caps the card's fetch below the call budget: a toolkit
	// (on the Worker, one per request) must not wait minutes for a card.
	cardTimeoutMs = 30_000
)

// Parse reads an A2A configuration: a JSON object whose "agents" (or
// "a2aAgents") maps names to agents, or that map itself, in the shape of
// an MCP configuration's servers (and of the Go port's "agents" block):
//
//	{"agents": {"billing": {"card": "https://billing.example/.well-known/agent-card.json",
//	  "headers": {"authorization": "Bearer ${BILLING_TOKEN}"}, "timeout": 120000, "pollEvery": 500}}}
//
// "card" is required (an http or https URL); "url" names the JSON-RPC
// endpoint when the card's must not be trusted (see Tools); "timeout" and
// "pollEvery" are milliseconds; "disabled": true or "enabled": false turns
// an agent off. Agents keep the order of the document. A configuration
// that is not this shape is an error naming what is wrong.
func Parse(data []byte) ([]tool.A2AAgent, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, nil
	}
	if err := jsonx.CheckDepth(data, jsonx.MaxDepth); err != nil {
		return nil, fmt.Errorf("a2a config: %w", err)
	}
	if !gjson.ValidBytes(data) {
		return nil, errors.New("a2a config: invalid JSON")
	}
	doc := gjson.ParseBytes(data)
	if !doc.IsObject() {
		return nil, errors.New("a2a config: want a JSON object")
	}
	agents := doc
	for _, key := range []string{"agents", "a2aAgents"} {
		if v := doc.Get(key); v.Exists() {
			agents = v
			break
		}
	}
	if !agents.IsObject() {
		return nil, errors.New("a2a config: the agent list must be an object of name ⇒ agent")
	}
	var out []tool.A2AAgent
	var err error
	agents.ForEach(func(name, a gjson.Result) bool {
		var ag tool.A2AAgent
		if ag, err = parseAgent(name.String(), a); err != nil {
			return false
		}
		out = append(out, ag)
		return true
	})
	return out, err
}

func parseAgent(name string, a gjson.Result) (tool.A2AAgent, error) {
	ag := tool.A2AAgent{Name: name, TimeoutMs: defaultTimeoutMs, PollEveryMs: defaultPollEveryMs}
	if name == "" {
		return ag, errors.New("a2a config: an agent has an empty name")
	}
	if !a.IsObject() {
		return ag, fmt.Errorf("a2a config: agent %q: want an object", name)
	}
	ag.Disabled = a.Get("disabled").Bool() || (a.Get("enabled").Exists() && !a.Get("enabled").Bool())
	ag.Card = strings.TrimSpace(a.Get("card").String())
	if !tool.IsHTTPURL(ag.Card) && !ag.Disabled {
		return ag, fmt.Errorf("a2a config: agent %q: card must be the http(s) URL of its agent card", name)
	}
	if u := a.Get("url"); u.Exists() {
		ag.URL = strings.TrimSpace(u.String())
		if !tool.IsHTTPURL(ag.URL) {
			return ag, fmt.Errorf("a2a config: agent %q: url must be an http(s) URL", name)
		}
	}
	var err error
	if ag.TimeoutMs, err = millis(name, a, "timeout", ag.TimeoutMs); err != nil {
		return ag, err
	}
	if ag.PollEveryMs, err = millis(name, a, "pollEvery", ag.PollEveryMs); err != nil {
		return ag, err
	}
	if h := a.Get("headers"); h.Exists() {
		if !h.IsObject() {
			return ag, fmt.Errorf("a2a config: agent %q: headers must be an object", name)
		}
		ag.Headers = map[string]string{}
		h.ForEach(func(k, v gjson.Result) bool {
			ag.Headers[strings.ToLower(k.String())] = v.String()
			return true
		})
	}
	return ag, nil
}

// millis reads a positive number of milliseconds under key, else def.
func millis(name string, a gjson.Result, key string, def int) (int, error) {
	t := a.Get(key)
	if !t.Exists() {
		return def, nil
	}
	if t.Type != gjson.Number || t.Int() <= 0 {
		return 0, fmt.Errorf("a2a config: agent %q: %s must be a positive number of milliseconds", name, key)
	}
	return int(t.Int()), nil
}
