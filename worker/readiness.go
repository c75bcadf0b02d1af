package worker

import (
	"context"
	"errors"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
)

// checkConfig validates every setting a request may need, at once: the
// model and state settings (LoadConfig), the toolkit's (BUILTINS against
// the bound file store, MCP_CONFIG's and A2A_AGENTS' syntax) and the conversation store's
// (MAX_CONVERSATION_BYTES, CONVERSATION_TTL_SECONDS, checked whether or not
// CONVERSATIONS_KV is bound), the agent teams (AGENTS) and the approval
// rules (APPROVAL_RULES). cfg is valid only when problems is empty.
// Bindings that only some routes need (APPROVALS) are not problems here:
// see readiness.
//
// Every route checks it, so it is kept per configuration (builds: the
// settings it read, and whether files were bound, are its key); the caller
// reads cfg, never changes it (AllowedOrigins is shared).
func (h *Handler) checkConfig() (cfg Config, problems ConfigErrors) {
	c := h.builds.config.get(h, func(h *Handler) (checkedConfig, bool) {
		cfg, problems := h.loadAndCheck()
		return checkedConfig{cfg, problems}, true
	})
	return c.cfg, c.problems
}

// checkedConfig is checkConfig's answer, kept in builds.
type checkedConfig struct {
	cfg      Config
	problems ConfigErrors
}

// loadAndCheck is checkConfig's work.
func (h *Handler) loadAndCheck() (cfg Config, problems ConfigErrors) {
	cfg, err := LoadConfig(h.opts.Getenv)
	problems.add(err)
	builtins, err := h.builtinsOption(context.Background(), "")
	problems.add(err)
	builtinsOK := err == nil
	_, err = h.declaredAgents(builtins, builtinsOK)
	problems.add(err)
	_, err = h.approvalRules(builtins, builtinsOK)
	problems.add(err)
	_, err = ParseHTTPTools(h.opts.Getenv(HTTPToolsSetting))
	problems.add(err)
	if mcp := strings.TrimSpace(h.opts.Getenv("MCP_CONFIG")); mcp != "" {
		if _, err := core.ParseMCPConfig([]byte(mcp)); err != nil {
			// The parser names servers and fields, never header values.
			msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "core: "), "mcp config: ")
			problems.add(&ConfigError{"MCP_CONFIG", "is not a valid MCP configuration: " + msg})
		}
	}
	_, err = h.a2aAgents()
	problems.add(err)
	_, _, err = conversationSettings(h.opts.Getenv)
	problems.add(err)
	return cfg, problems
}

// configProblem is one entry of the "problems" list of a config error and
// of GET /readyz: the setting's name and what is wrong, never its value.
type configProblem struct {
	Setting string `json:"setting"`
	Problem string `json:"problem"`
}

func problemList(err error) []configProblem {
	var list ConfigErrors
	if errs, ok := errors.AsType[ConfigErrors](err); ok {
		list = errs
	} else if ce, ok := errors.AsType[*ConfigError](err); ok {
		list = ConfigErrors{ce}
	}
	out := make([]configProblem, len(list))
	for i, ce := range list {
		out[i] = configProblem{ce.Setting, ce.Problem}
	}
	return out
}

// readiness is the body of GET /readyz.
type readiness struct {
	// Status is "ready" (200) when both run and resume can be served, else
	// "not_ready" (503).
	Status string `json:"status"`
	// Run: POST /v1/run (and /v1/chat/completions) can be served — every
	// setting is present and valid.
	Run bool `json:"run"`
	// Resume: POST /v1/resume can be served — Run, and the approval ledger
	// (APPROVALS) is bound, so that a token is resumed at most once.
	Resume bool `json:"resume"`
	// Problems names each missing or invalid setting or binding.
	Problems []configProblem `json:"problems"`
}

// readiness checks the whole configuration and the bindings.
func (h *Handler) readiness() readiness {
	_, problems := h.checkConfig()
	r := readiness{Run: len(problems) == 0}
	if h.opts.Spent() == nil {
		problems = append(problems, approvalsProblem)
	} else {
		r.Resume = r.Run
	}
	r.Status = "not_ready"
	if r.Run && r.Resume {
		r.Status = "ready"
	}
	r.Problems = problemList(problems)
	return r
}

// serveReady is GET /readyz: whether a run and a resume can be served, and
// the name of every setting or binding in the way. It never shows a
// setting's value, so it is public like /healthz.
func (h *Handler) serveReady(w httpx.ResponseWriter, r *httpx.Request) {
	rd := h.readiness()
	status := httpx.StatusOK
	if rd.Status != "ready" {
		status = httpx.StatusServiceUnavailable
	}
	writeJSON(w, status, rd)
}

// logConfigOnce logs every configuration problem once per handler (on
// Workers, once per Go instance), the first time a request arrives: the
// environment is only readable then.
func (h *Handler) logConfigOnce() {
	h.configLogged.Do(func() {
		rd := h.readiness()
		if rd.Status == "ready" {
			return
		}
		names := make([]string, len(rd.Problems))
		for i, p := range rd.Problems {
			names[i] = p.Setting + " " + p.Problem
		}
		h.opts.Logf("worker: configuration: %d problem(s), GET /readyz lists them: %s", len(names), strings.Join(names, "; "))
	})
}
