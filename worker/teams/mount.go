// Package teams is the Worker's agent teams: /v1/run with "agent" runs a
// team declared in AGENTS through core/agents, and a halt anywhere in its
// tree is resumed through /v1/resume (or the UI protocol's approval) from
// the tree kept in the TreeStore. Package worker parses AGENTS and keeps
// the trees; it hands a team run to the TeamRunner that Mount registers.
package teams

import (
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

// Mount registers the team runner on h: pass it to worker.NewHandler.
func Mount(h *worker.Handler) { h.SetTeams(runner{}) }

// runner is the worker.TeamRunner of this package.
type runner struct{}

func (runner) Run(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, req worker.RunRequest) {
	serveAgentRun(h, w, r, cfg, req)
}

func (runner) Resume(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, st worker.State, answer core.Answer, stream bool) {
	resumeAgent(h, w, r, cfg, st, answer, stream)
}

func (runner) Stream(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, s worker.TeamStream) {
	streamUI(h, w, r, cfg, s)
}
