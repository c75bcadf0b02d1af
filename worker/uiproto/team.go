package uiproto

import (
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

// /v1/ui with "agent" runs an AGENTS team, as /v1/run does, and answers
// with the UI message stream. One step is one model call of one agent:
// the top agent's text and tool calls as in a single-agent run, a team
// member's tool calls (toolMetadata.path names it) in steps of their own,
// so that the step an approval request ends holds only the call it asks
// about. A member's text reaches the top agent as its task's result and is
// not written. A halt anywhere in the tree is the approval request of the
// member's call (approvalDescriptor.path: the asking agent's path); its
// signature is the team's state token, and the answer resumes the tree
// kept in the TreeStore, as /v1/resume does.
//
// The team runs in worker/teams, behind package worker's TeamRunner
// (Handler.StreamTeam hands it a worker.TeamStream of callbacks that write
// this protocol): neither package imports the other, so a build mounts
// either without the other, and the protocol stays here.

// teamEvent writes one event of a team member (root: the top agent).
func (s *uiStream) teamEvent(e agents.StreamEvent, root bool) error {
	if root {
		switch e.Type {
		case core.EventText, core.EventUsage, core.EventToolCall:
			if s.step && s.handle != e.Handle {
				s.endStep() // a member's step was open
			}
			s.handle = e.Handle
		}
		return s.event(e.StreamEvent)
	}
	switch e.Type {
	case core.EventToolCall:
		if e.ID == s.skip {
			return nil
		}
		if !s.step || s.handle != e.Handle {
			s.startStep()
			s.handle = e.Handle
		}
		return s.toolCall(e.StreamEvent, e.Path)
	case core.EventToolResult:
		return s.toolResult(e.StreamEvent)
	}
	return s.sse.Err()
}

// uiTeam runs a team request through the TeamRunner (a fresh run of
// prompt, or the resume of st's tree with answer) and answers with the UI
// message stream; skip is the call a resume answers. Before the stream
// starts, a problem is answered as JSON (unknown_agent, config,
// state_unrestorable).
func uiTeam(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, workspace, agent, skip string, ts worker.TeamStream) {
	var s *uiStream
	ts.Workspace, ts.Agent = workspace, agent
	ts.Begun = func(tk *core.Toolkit) {
		w.Header().Set(uiStreamHeader, "v1")
		s = &uiStream{sse: worker.NewSSEWriter(w), tk: tk, skip: skip}
		s.part(uiPart{Type: "start"})
	}
	ts.Event = func(e agents.StreamEvent) error { return s.teamEvent(e, len(e.Path) <= 1) }
	ts.Settled = func(status int, body any) {
		s.endText()
		if out, ok := body.(worker.AgentResponse); ok && status == httpx.StatusOK {
			meta := map[string]any{"status": out.Status, "agent": agent, "turns": out.Turns, "totalTokens": out.TotalTokens}
			s.finishWith(out.Status, out.Limit, out.Pending, out.State, out.StateExpiresAt, meta)
		} else {
			s.endStep()
			e, _ := body.(worker.ErrorBody)
			s.part(uiPart{Type: "error", ErrorText: e.Error.Code + ": " + e.Error.Message})
		}
		s.sse.Send([]byte("data: [DONE]\n\n"))
	}
	h.StreamTeam(w, r, cfg, ts)
}

// uiTeamRun starts agent on prompt.
func uiTeamRun(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, agent, prompt string) {
	uiTeam(h, w, r, cfg, "", agent, "", worker.TeamStream{Prompt: prompt})
}

// uiTeamResume resumes a team's tree with answer, after its token was
// spent: the tree is taken from the TreeStore (gone whatever happens next).
func uiTeamResume(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, st worker.State, answer core.Answer, skip string) {
	uiTeam(h, w, r, cfg, st.Workspace, st.Agent, skip, worker.TeamStream{Resume: &st, Answer: answer})
}
