package worker

import (
	"fmt"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// AgentsSetting is the Worker setting that declares its agent teams: a
// JSON array in the shape of the JS API's createAgent options, with tools
// and team members by name:
//
//	[{"name": "support", "does": "answers customers",
//	  "instructions": "You are support. Hand billing questions to billing.",
//	  "team": ["billing"]},
//	 {"name": "billing", "does": "refunds and invoices",
//	  "instructions": "You are billing.", "tools": ["refund"],
//	  "budget": {"maxTurns": 4, "maxTokens": 20000}}]
//
// "tools" names tools the Worker already offers (Options.Tools, the
// built-ins BUILTINS turns on, the tools of MCP_CONFIG's servers); an
// agent gets exactly those (no built-in is added implicitly). "team" names
// other declared agents: they become the targets of the agent's "task"
// tool. "budget" takes agents.Budget's fields in JS casing (maxTurns,
// maxTokens, maxToolCalls, maxWallMs, maxChildren, maxConcurrent, maxDepth).
// /v1/run with "agent": "<name>" runs that agent with its team.
const AgentsSetting = "AGENTS"

// AgentDecl is one agent of AGENTS.
type AgentDecl struct {
	Name         string
	Does         string
	Instructions string
	Tools        []string
	Team         []string
	Budget       *agents.Budget
}

// validAgentName reports whether name is 1-64 letters, digits, _ or -,
// starting with a letter: it appears in paths, handle ids and the task
// tool's enum. (Checked by hand: regexp is not linked into the Worker.)
func validAgentName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i, c := range name {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_' || c == '-')) {
			return false
		}
	}
	return true
}

// maxAgents bounds AGENTS, so a runaway setting cannot make every request
// build a huge registry.
const maxAgents = 64

// ParseAgents reads and checks AGENTS ("" declares none). known reports
// whether the Worker offers a tool of that name; nil skips the check (the
// tool set is only known when a request builds it: MCP servers, skills).
// A problem is a *ConfigError naming AGENTS and the agent, never a value
// beyond the names; once the text is an array of agents, every problem of
// every agent is reported at once (ConfigErrors), as for the rest of the
// configuration.
func ParseAgents(text string, known func(string) bool) ([]AgentDecl, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	problem := func(format string, args ...any) error {
		return &ConfigError{AgentsSetting, fmt.Sprintf(format, args...)}
	}
	if err := jsonx.CheckDepthString(text, 8); err != nil || !gjson.Valid(text) {
		return nil, problem("is not valid JSON (want an array of agents: [{\"name\", \"does\", \"instructions\", \"tools\", \"team\", \"budget\"}])")
	}
	doc := gjson.Parse(text)
	if !doc.IsArray() {
		return nil, problem("must be a JSON array of agents: [{\"name\", \"does\", \"instructions\", \"tools\", \"team\", \"budget\"}]")
	}
	list := doc.Array()
	if len(list) == 0 {
		return nil, problem("declares no agent (an empty array); unset it instead")
	}
	if len(list) > maxAgents {
		return nil, problem("declares %d agents; at most %d are allowed", len(list), maxAgents)
	}
	var problems ConfigErrors
	report := func(format string, args ...any) { problems.add(problem(format, args...)) }
	decls := make([]AgentDecl, 0, len(list))
	// index holds every well-formed name, so a team member is checked
	// against what was declared even when that agent has a problem itself.
	index := map[string]int{}
	for i, v := range list {
		d, err := readAgentDecl(v)
		if err != nil {
			report("agent %d: %v", i, err)
			if name := v.Get("name"); name.Type == gjson.String && validAgentName(name.Str) {
				index[name.Str] = i
			}
			continue
		}
		if !validAgentName(d.Name) {
			report("agent %d: \"name\" must be 1-64 letters, digits, _ or -, starting with a letter", i)
			continue
		}
		if _, dup := index[d.Name]; dup {
			report("declares the agent %s twice", d.Name)
			continue
		}
		index[d.Name] = i
		decls = append(decls, d)
	}
	for _, d := range decls {
		for _, t := range d.Team {
			if _, ok := index[t]; !ok {
				report("agent %s: team member %s is not declared", d.Name, QuoteClip(t))
			}
		}
		for _, t := range d.Tools {
			switch {
			case t == "task":
				report("agent %s: \"task\" is not a tool to list: an agent with a team gets it", d.Name)
			case known != nil && !known(t):
				report("agent %s: tool %s is not offered by this Worker (GET /v1/tools lists them)", d.Name, QuoteClip(t))
			}
		}
	}
	if err := problems.err(); err != nil {
		return nil, err
	}
	return decls, nil
}

// readAgentDecl reads one entry of AGENTS; unknown fields are an error.
func readAgentDecl(v gjson.Result) (AgentDecl, error) {
	var d AgentDecl
	if !v.IsObject() {
		return d, fmt.Errorf("must be an object")
	}
	err := jsonx.ReadObject(v, "", true,
		jsonx.Field{Name: "name", Read: jsonx.String(&d.Name)},
		jsonx.Field{Name: "does", Read: jsonx.String(&d.Does)},
		jsonx.Field{Name: "instructions", Read: jsonx.String(&d.Instructions)},
		jsonx.Field{Name: "tools", Read: stringList(&d.Tools)},
		jsonx.Field{Name: "team", Read: stringList(&d.Team)},
		jsonx.Field{Name: "budget", Read: func(v gjson.Result, path string) error {
			b, err := readBudget(v, path)
			d.Budget = b
			return err
		}},
	)
	return d, err
}

// stringList reads an array of non-empty strings.
func stringList(dst *[]string) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		if !v.IsArray() {
			return &jsonx.FieldError{Path: path, Problem: "must be an array of names"}
		}
		out := []string{}
		var err error
		v.ForEach(func(_, e gjson.Result) bool {
			if e.Type != gjson.String || strings.TrimSpace(e.Str) == "" {
				err = &jsonx.FieldError{Path: path, Problem: "must hold non-empty strings only"}
				return false
			}
			out = append(out, e.Str)
			return true
		})
		*dst = out
		return err
	}
}

// maxWallProblem spells agents.MaxWallMsLimit as a constant (a test
// keeps them equal): formatting it at run time costs the wasm budget.
const maxWallProblem = "must be at most 9223372036854 (about 292 years)"

// readBudget reads "budget": positive whole numbers, JS casing.
func readBudget(v gjson.Result, path string) (*agents.Budget, error) {
	var b agents.Budget
	var wallMs int64
	positive := func(read jsonx.Reader, get func() int64) jsonx.Reader {
		return func(v gjson.Result, p string) error {
			if err := read(v, p); err != nil {
				return err
			}
			if get() <= 0 {
				return &jsonx.FieldError{Path: p, Problem: "must be a positive whole number"}
			}
			return nil
		}
	}
	err := jsonx.ReadObject(v, path, true,
		jsonx.Field{Name: "maxTurns", Read: positive(jsonx.Int(&b.MaxTurns), func() int64 { return int64(b.MaxTurns) })},
		jsonx.Field{Name: "maxTokens", Read: positive(jsonx.Int64(&b.MaxTokens), func() int64 { return b.MaxTokens })},
		jsonx.Field{Name: "maxToolCalls", Read: positive(jsonx.Int64(&b.MaxToolCalls), func() int64 { return b.MaxToolCalls })},
		jsonx.Field{Name: "maxWallMs", Read: positive(jsonx.Int64(&wallMs), func() int64 { return wallMs })},
		// (maxWallMs past agents.MaxWallMsLimit is refused below: as a
		// time.Duration it would wrap around.)
		jsonx.Field{Name: "maxChildren", Read: positive(jsonx.Int(&b.MaxChildren), func() int64 { return int64(b.MaxChildren) })},
		jsonx.Field{Name: "maxConcurrent", Read: positive(jsonx.Int(&b.MaxConcurrent), func() int64 { return int64(b.MaxConcurrent) })},
		jsonx.Field{Name: "maxDepth", Read: positive(jsonx.Int(&b.MaxDepth), func() int64 { return int64(b.MaxDepth) })},
	)
	if err == nil && wallMs > agents.MaxWallMsLimit {
		return &b, &jsonx.FieldError{Path: path + ".maxWallMs", Problem: maxWallProblem}
	}
	b.MaxWall = time.Duration(wallMs) * time.Millisecond
	return &b, err
}

// staticToolNames reports the names of the tools every request's toolkit
// has without contacting anything (Options.Tools, HTTP_TOOLS and the
// built-ins BUILTINS turns on), and whether that is the whole tool set: with
// MCP_CONFIG, A2A_AGENTS or SKILLS set, more tools join per request, so an unknown
// name can only be judged then.
func (h *Handler) staticToolNames(builtins any) (names map[string]bool, complete bool) {
	names = map[string]bool{}
	for _, t := range h.tools() {
		names[t.Name] = true
	}
	// A bad HTTP_TOOLS is its own problem (checkConfig reports it).
	decls, _ := ParseHTTPTools(h.opts.Getenv(HTTPToolsSetting))
	for _, d := range decls {
		names[d.Name] = true
	}
	if cfg, ok := builtins.(core.BuiltinsConfig); ok {
		for name, on := range cfg.Tools {
			if on {
				names[name] = true
			}
		}
	}
	complete = strings.TrimSpace(h.opts.Getenv("MCP_CONFIG")) == "" && strings.TrimSpace(h.opts.Getenv("A2A_AGENTS")) == "" && h.skills() == nil
	return names, complete
}

// declaredAgents parses AGENTS, checking tool names against the static
// tool set when it is the whole tool set and builtinsOK (BUILTINS itself
// parsed).
func (h *Handler) declaredAgents(builtins any, builtinsOK bool) ([]AgentDecl, error) {
	text := h.opts.Getenv(AgentsSetting)
	if strings.TrimSpace(text) == "" {
		return nil, nil // no team: no need for the tool names (checkConfig asks on every request)
	}
	var known func(string) bool
	if builtinsOK {
		if names, complete := h.staticToolNames(builtins); complete {
			known = func(name string) bool { return names[name] }
		}
	}
	return ParseAgents(text, known)
}
