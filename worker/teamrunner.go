package worker

import (
	"context"
	"errors"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/internal/httpx"
)

// TeamRunner runs the AGENTS teams that /v1/run, /v1/resume and /v1/ui
// hand a request with "agent" (or a team's state token) to. worker/teams
// registers one with its Mount (SetTeams), so that worker need not import
// it; a build without it refuses team runs (TeamsUnavailable).
type TeamRunner interface {
	// Run answers POST /v1/run with "agent".
	Run(h *Handler, w httpx.ResponseWriter, r *httpx.Request, cfg Config, req RunRequest)
	// Resume answers POST /v1/resume of a team's state token st, spent.
	Resume(h *Handler, w httpx.ResponseWriter, r *httpx.Request, cfg Config, st State, answer core.Answer, stream bool)
	// Stream runs a team for the UI protocol (TeamStream).
	Stream(h *Handler, w httpx.ResponseWriter, r *httpx.Request, cfg Config, s TeamStream)
	// Leg runs one stretch of a durable team run (TeamLeg), until the team
	// halts or ends or ctx does.
	Leg(h *Handler, ctx context.Context, cfg Config, leg TeamLeg) TeamLegResult
}

// TeamLeg is one stretch of a durable team run (worker/runs): the team
// Agent run from Prompt, or its halted Tree resumed with Answer.
type TeamLeg struct {
	Workspace, Agent, Prompt string
	Tree                     []byte
	Answer                   *core.Answer
	// OnDecision receives each approval decision of the leg's agents, as
	// it is made (the run's journal keeps them).
	OnDecision func(approval.Entry)
}

// TeamLegResult is how a leg stopped: Status is the top agent's task
// status (agents.TaskStatus*); a pending leg has the Request and the Tree
// to resume it with. Err is a problem before the team began (a setting, a
// tree that no longer restores): nothing ran.
type TeamLegResult struct {
	Status  string
	Text    string
	Pending *core.Request
	Tree    []byte
	Err     error
}

// Leg hands a durable team run's leg to the TeamRunner; call it after
// TeamsUnavailable reported false, or check TeamsMounted.
func (h *Handler) Leg(ctx context.Context, cfg Config, leg TeamLeg) TeamLegResult {
	if h.teams == nil {
		return TeamLegResult{Err: errors.New("this Worker's build serves no agent teams (worker/teams is not mounted)")}
	}
	return h.teams.Leg(h, ctx, cfg, leg)
}

// TeamStream is a team run of the UI protocol: a fresh run of Prompt, or
// with Resume the halted tree of that token (spent) resumed with Answer.
type TeamStream struct {
	Workspace, Agent, Prompt string
	Resume                   *State
	Answer                   core.Answer
	// Begun is called once the team has begun over tk, before any Event;
	// a problem before it is answered as JSON.
	Begun func(tk *core.Toolkit)
	// Event gets each stream event of the team's agents but their done and
	// error, on the writing goroutine; an error (the client is gone) stops
	// the run.
	Event func(e agents.StreamEvent) error
	// Settled gets what /v1/run would answer: 200 and an AgentResponse,
	// else an ErrorBody.
	Settled func(status int, body any)
}

// AgentResponse is the body /v1/run (with "agent") and the resume of its
// state token answer: the top-level agent's result, every agent the run
// spawned (its path, state, turns and tokens), and when the run halted the
// pending request (data.path names the asking agent, data.handle its
// handle) with the sealed state token.
type AgentResponse struct {
	Agent string `json:"agent"`
	// Path is the top-level agent's path: [agent].
	Path           []string      `json:"path"`
	Status         string        `json:"status"`
	Text           string        `json:"text"`
	IsError        bool          `json:"isError,omitempty"`
	Limit          string        `json:"limit,omitempty"`
	Pending        *core.Request `json:"pending,omitempty"`
	Turns          int           `json:"turns"`
	TotalTokens    int           `json:"totalTokens"`
	Agents         []AgentRow    `json:"agents"`
	State          string        `json:"state,omitempty"`
	StateExpiresAt string        `json:"stateExpiresAt,omitempty"`
}

// AgentRow is one handle of the run's tree.
type AgentRow struct {
	Handle string   `json:"handle"`
	Agent  string   `json:"agent"`
	Path   []string `json:"path"`
	State  string   `json:"state"`
	Turns  int      `json:"turns"`
	Tokens int      `json:"tokens"`
}

// SetTeams registers the runner of agent teams (teams.Mount).
func (h *Handler) SetTeams(t TeamRunner) { h.teams = t }

// TeamsMounted reports whether a TeamRunner is registered: a product that
// offers the AGENTS teams (worker/a2aserve's card) asks before it does.
func (h *Handler) TeamsMounted() bool { return h.teams != nil }

// TeamsUnavailable answers a team run on a build without a TeamRunner and
// reports true; false when there is one.
func (h *Handler) TeamsUnavailable(w httpx.ResponseWriter) bool {
	if h.teams != nil {
		return false
	}
	writeError(w, httpx.StatusNotImplemented, "teams_unavailable", "this Worker's build serves no agent teams (worker/teams is not mounted); nothing ran")
	return true
}

// StreamTeam hands a team run of the UI protocol (worker/uiproto) to the
// TeamRunner; call it after TeamsUnavailable reported false.
func (h *Handler) StreamTeam(w httpx.ResponseWriter, r *httpx.Request, cfg Config, s TeamStream) {
	h.teams.Stream(h, w, r, cfg, s)
}

// TreesUnavailable answers a team run on a Worker without a tree store.
func (h *Handler) TreesUnavailable(w httpx.ResponseWriter) {
	writeError(w, httpx.StatusServiceUnavailable, "approvals_unavailable", "this Worker has no "+ApprovalsBinding+" Durable Object binding, which keeps a halted agent team; nothing ran. Its operator must deploy with the generated wrangler.jsonc")
}

// AgentMetric records core's metric events of a team's agents: in core's
// registry (GET /metrics, as any run) and by agent path.
func (h *Handler) AgentMetric(e agents.MetricEvent) {
	h.coreMetrics.Record(e.MetricEvent)
	h.metrics.agent(strings.Join(e.Path, "/"), e.Kind)
}

// CountRefusedState counts a state token refused with code
// (toolnexus_worker_state_refused_total).
func (h *Handler) CountRefusedState(code string) { h.metrics.refusedState(code) }
