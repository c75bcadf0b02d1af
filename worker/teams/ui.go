package teams

import (
	"context"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

// streamUI runs a team request of the UI protocol (s: a fresh run of
// s.Prompt, or the resume of s.Resume's tree) and hands its stream events
// and its answer to s's functions, which write the UI message stream.
// Before the team begins, a problem is answered as JSON (unknown_agent,
// config, state_gone, state_unrestorable).
func streamUI(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, s worker.TeamStream) {
	trees := h.Options().Trees()
	begin := func(opts agents.Options) (*agents.Runtime, func() agents.TaskResult, error) {
		rt := agents.NewRuntime(opts)
		return rt, startAgent(rt, s.Agent, s.Prompt), nil
	}
	if s.Resume != nil {
		tree, ok := takeTree(h, w, r, trees, s.Resume.ID, "the approval is used up")
		if !ok {
			return
		}
		begin = restoreBegin(tree, s.Answer)
	}
	ctx, cancel := context.WithTimeout(r.Context(), cfg.Timeout)
	defer cancel()
	feed := newEventFeed()
	team, ok := startTeam(h, ctx, w, cfg, s.Workspace, s.Agent, begin, func(opts *agents.Options) {
		opts.OnStream = func(e agents.StreamEvent) {
			if e.Type != core.EventDone && e.Type != core.EventError {
				feed.push(feedItem{e.Type, e})
			}
		}
	})
	if !ok {
		return
	}
	defer team.close()
	rt, run := team.rt, team.run
	s.Begun(team.tk)
	res := drainTeam(ctx, rt, run, feed, func(it feedItem) error { return s.Event(it.data.(agents.StreamEvent)) })
	s.Settled(teamAnswer(h, ctx, cfg, "ui", s.Workspace, s.Agent, rt, res, trees))
}
