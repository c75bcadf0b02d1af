package teams

import (
	"context"
	"errors"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

// serveAgentRun is POST /v1/run with "agent": the declared team runs the
// prompt through core/agents; a halt anywhere in the tree answers
// "pending" with a state token whose tree waits in the TreeStore.
func serveAgentRun(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, req worker.RunRequest) {
	switch {
	case len(req.Messages) > 0:
		worker.WriteError(w, httpx.StatusBadRequest, "unsupported_field", `"messages" cannot be combined with "agent": an agent team keeps its own transcripts`)
		return
	case req.Conversation != "":
		worker.WriteError(w, httpx.StatusBadRequest, "unsupported_field", `"conversation" cannot be combined with "agent": an agent team keeps its own transcripts`)
		return
	}
	trees := h.Options().Trees()
	if trees == nil {
		h.TreesUnavailable(w)
		return
	}
	runTeamRequest(h, w, r, cfg, "run", req.Workspace, req.Agent, req.Stream, trees, func(opts agents.Options) (*agents.Runtime, func() agents.TaskResult, error) {
		rt := agents.NewRuntime(opts)
		return rt, startAgent(rt, req.Agent, req.Prompt), nil
	})
}

// resumeAgent is POST /v1/resume of an agent team's token, after it was
// spent: the tree is taken from the TreeStore (so it is gone whatever
// happens next), restored, and the Answer goes to the deepest suspended
// agent (Runtime.Resume).
func resumeAgent(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, st worker.State, answer core.Answer, stream bool) {
	trees := h.Options().Trees()
	tree, ok := takeTree(h, w, r, trees, st.ID, "the state token is used up")
	if !ok {
		return
	}
	runTeamRequest(h, w, r, cfg, "resume", st.Workspace, st.Agent, stream, trees, restoreBegin(tree, answer))
}

// takeTree takes the halted team's tree stored under id from trees (gone
// whatever happens next), answering 503 or 410 itself when it cannot; spent
// says what was used up, for the 503.
func takeTree(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, trees worker.TreeStore, id, spent string) ([]byte, bool) {
	tree, err := trees.Take(r.Context(), id)
	if err != nil {
		h.Options().Logf("worker: tree store: %v", err)
		worker.WriteError(w, httpx.StatusServiceUnavailable, "state_store", "could not read the halted agent team; "+spent+": start a new run")
		return nil, false
	}
	if tree == nil {
		h.CountRefusedState("state_gone")
		worker.WriteError(w, httpx.StatusGone, "state_gone", "the halted agent team is no longer stored (it expired); start a new run")
		return nil, false
	}
	return tree, true
}

// restoreBegin begins a team restored from tree and resumed with answer.
func restoreBegin(tree []byte, answer core.Answer) teamBegin {
	return func(opts agents.Options) (*agents.Runtime, func() agents.TaskResult, error) {
		rt, err := agents.RestoreRuntime(opts, tree)
		if err != nil {
			return nil, nil, err
		}
		return rt, func() agents.TaskResult {
			res, err := rt.Resume(answer)
			if err != nil {
				return agents.TaskResult{Text: err.Error(), IsError: true, Status: agents.TaskStatusError}
			}
			return res
		}, nil
	}
}

// teamBegin builds a request's runtime over the team's options (fresh, or
// restored from a stored tree) and returns it with the work to run on it.
type teamBegin func(agents.Options) (*agents.Runtime, func() agents.TaskResult, error)

// runTeamRequest runs a team under the request's deadline and answers with
// an AgentResponse, as JSON or, with stream, as server-sent events
// (agents_stream.go). Only a restore can fail to begin (409).
func runTeamRequest(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, endpoint, workspace, agent string, stream bool, trees worker.TreeStore, begin teamBegin) {
	ctx, cancel := context.WithTimeout(r.Context(), cfg.Timeout)
	defer cancel()
	var feed *eventFeed
	team, ok := startTeam(h, ctx, w, cfg, workspace, agent, begin, func(opts *agents.Options) {
		if stream {
			feed = newEventFeed()
			opts.OnEvent, opts.OnStream = feed.onEvent, feed.onStream
		}
	})
	if !ok {
		return
	}
	defer team.close()
	rt, run := team.rt, team.run
	finish := func(res agents.TaskResult) (int, any) {
		return teamAnswer(h, ctx, cfg, endpoint, workspace, agent, rt, res, trees)
	}
	if feed != nil {
		streamTeam(h, w, ctx, rt, run, feed, finish)
		return
	}
	status, body := finish(runTeam(ctx, rt, run))
	worker.WriteJSON(w, status, body)
}

// startedTeam is a request's team begun over its toolkit: rt runs run.
type startedTeam struct {
	tk  *core.Toolkit
	rt  *agents.Runtime
	run func() agents.TaskResult
}

// close closes the runtime and then the toolkit.
func (t startedTeam) close() {
	t.rt.Close(t.rt.Root, &agents.CloseOptions{Force: true})
	t.tk.Close()
}

// startTeam builds the request's team, lets hook set its options' event
// hooks, and begins it; the caller closes what it returns. When ok is false
// it has answered: a config problem, or 409 when a restore fails.
func startTeam(h *worker.Handler, ctx context.Context, w httpx.ResponseWriter, cfg worker.Config, workspace, agent string, begin teamBegin, hook func(*agents.Options)) (startedTeam, bool) {
	team, ok := newAgentTeam(h, ctx, w, cfg, workspace, agent, h.AgentMetric)
	if !ok {
		return startedTeam{}, false
	}
	hook(&team.opts)
	rt, run, err := begin(team.opts)
	if err != nil {
		team.tk.Close()
		h.Options().Logf("worker: restore agent team: %v", err)
		worker.WriteError(w, httpx.StatusConflict, "state_unrestorable", "the halted agent team cannot be restored with this Worker's "+worker.AgentsSetting+" (an agent it names is no longer declared?); start a new run")
		return startedTeam{}, false
	}
	return startedTeam{tk: team.tk, rt: rt, run: run}, true
}

// teamAnswer records a settled team run and shapes its answer: a pending
// tree is snapshotted into the TreeStore under a new state token's id; a
// failed or timed-out run is 502 or 504, naming no provider detail.
func teamAnswer(h *worker.Handler, ctx context.Context, cfg worker.Config, endpoint, workspace, agent string, rt *agents.Runtime, res agents.TaskResult, trees worker.TreeStore) (int, any) {
	h.CountRun(endpoint, res.Status)
	h.Options().Logf("worker: %s agent=%s status=%s turns=%d tokens=%d", endpoint, agent, res.Status, res.Turns, res.TotalTokens)
	out := worker.AgentResponse{
		Agent: agent, Path: []string{agent}, Status: res.Status, Text: res.Text, IsError: res.IsError,
		Limit: res.Limit, Pending: res.Pending, Turns: res.Turns, TotalTokens: res.TotalTokens, Agents: []worker.AgentRow{},
	}
	for _, v := range rt.List() {
		out.Agents = append(out.Agents, worker.AgentRow{Handle: v.ID, Agent: v.Agent, Path: v.Path, State: string(v.State), Turns: v.Turns, Tokens: v.Tokens})
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && res.Status != agents.TaskStatusDone {
		// The deadline may reach a model call before runTeam sees it.
		res.Status = agents.TaskStatusTimeout
	}
	switch res.Status {
	case agents.TaskStatusError:
		h.Options().Logf("worker: agent run failed: %s", worker.Redact(res.Text, cfg.APIKey, cfg.StateSecret, cfg.APIToken))
		return httpx.StatusBadGateway, worker.ErrorBody{Error: worker.APIError{Code: "upstream_error", Message: "the agent run failed (the Worker's log has the reason)"}}
	case agents.TaskStatusTimeout:
		return httpx.StatusGatewayTimeout, worker.ErrorBody{Error: worker.APIError{Code: "upstream_timeout", Message: "the run timed out"}}
	case agents.TaskStatusPending:
	default:
		return httpx.StatusOK, out
	}
	if res.Pending == nil {
		return httpx.StatusInternalServerError, worker.ErrorBody{Error: worker.APIError{Code: "internal", Message: "internal error"}}
	}
	snap, err := rt.Snapshot()
	if err != nil {
		h.Options().Logf("worker: snapshot agent team: %v", err)
		return httpx.StatusInternalServerError, worker.ErrorBody{Error: worker.APIError{Code: "internal", Message: "internal error"}}
	}
	pending := *res.Pending
	token, st, err := worker.NewSealer(cfg.StateSecret, h.Options().Now).SealTree(cfg.Style, workspace, agent, pending, cfg.StateTTL)
	if err != nil {
		h.Options().Logf("worker: seal: %v", err)
		return httpx.StatusInternalServerError, worker.ErrorBody{Error: worker.APIError{Code: "internal", Message: "internal error"}}
	}
	expires := time.Unix(st.ExpiresAt, 0)
	if err := trees.Put(context.WithoutCancel(ctx), st.ID, snap, expires.Add(worker.LedgerGrace)); err != nil {
		h.Options().Logf("worker: tree store: %v", err)
		return httpx.StatusServiceUnavailable, worker.ErrorBody{Error: worker.APIError{Code: "state_store", Message: "could not keep the halted agent team; its approval cannot be resumed: start a new run"}}
	}
	out.State = token
	out.StateExpiresAt = expires.UTC().Format(time.RFC3339)
	if pending.ExpiresAt == "" {
		pending.ExpiresAt = out.StateExpiresAt
	}
	out.Pending = &pending
	return httpx.StatusOK, out
}
