package runs

import (
	"context"
	"strconv"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/worker"
)

// A durable team run is journaled by legs, not by the steps of each agent:
// core/agents runs a tree of agents whose turns it does not journal. A leg
// is the team run from its prompt, or its halted tree resumed with an
// answer, to the next halt (the tree's snapshot is kept as a note of the
// run) or the end. Entries: a "call" entry (Call "team", Turn the leg's
// number) as each attempt of a leg begins, "suspend" with the request and
// "end"; answers as for one agent. A leg cut off is begun again from its
// start — its model calls and the calls that need no approval are made
// again — except a leg that began with an approval: the approved call may
// have run, so unless its tool is idempotent the run asks, as for one
// agent (core.KindOutcomeUnknown), and goes on as the person says.

// teamCall is the Call of a team run's entries.
const teamCall = "team"

// teamLeg runs the leg the journal's entries say is next and returns the
// request the team halted on, if it did.
func teamLeg(h *worker.Handler, ctx context.Context, cfg worker.Config, j *runJournal, meta runMeta, entries []journal.Entry) *core.Request {
	opts := h.Options()
	leg := 1
	var halt *core.Request // the newest suspension
	answers := map[string]*core.Answer{}
	attempts := 0 // of the current leg
	for _, e := range entries {
		switch e.Kind {
		case journal.KindSuspend:
			halt, attempts = e.Request, 0
		case journal.KindAnswer:
			if _, ok := answers[e.Answer.ID]; !ok {
				answers[e.Answer.ID] = e.Answer
			}
			if halt != nil && e.Answer.ID == halt.ID {
				leg++
			}
		case journal.KindCall:
			if e.Turn == leg {
				attempts = e.Attempt
			}
		}
	}
	in := worker.TeamLeg{Workspace: meta.Workspace, Agent: meta.Agent, Prompt: entries[0].Prompt}
	in.OnDecision = func(e approval.Entry) {
		// A leg begun again makes its decisions again: the journal keeps
		// the first of each (its key).
		j.Record(ctx, journal.Entry{Kind: journal.KindDecision, Turn: leg, Call: e.Call, Decision: e.AppendJSON(nil)})
	}
	if halt != nil {
		ans, ok := answers[halt.ID]
		if !ok {
			return halt // still waiting
		}
		tree, err := j.store.Note(ctx, j.id, "tree:"+halt.ID)
		if err != nil || tree == nil {
			fail(ctx, j, "the halted team is no longer stored")
			return nil
		}
		answer := teamAnswer(halt, *ans, answers)
		in.Tree, in.Answer = tree, &answer
		if attempts > 0 && answer.Ok && answer.Recorded == nil && !idempotentTool(h, ctx, meta, halt) {
			u := teamUnknown(halt, attempts)
			if err := j.store.SetNote(ctx, j.id, "tree:"+u.ID, tree); err != nil {
				return nil
			}
			if err := j.Record(ctx, journal.Entry{Kind: journal.KindSuspend, At: time.Now().UnixMilli(), Turn: leg, Call: teamCall, Request: u}); err != nil {
				return nil
			}
			return u
		}
	}
	if attempts >= journal.MaxAttempts {
		fail(ctx, j, "the team run was interrupted "+strconv.Itoa(attempts)+" times in one leg; giving up")
		return nil
	}
	if err := j.Record(ctx, journal.Entry{Kind: journal.KindCall, At: time.Now().UnixMilli(), Turn: leg, Call: teamCall, Name: meta.Agent, Attempt: attempts + 1}); err != nil {
		return nil
	}
	res := h.Leg(ctx, cfg, in)
	switch {
	case res.Err != nil:
		fail(ctx, j, res.Err.Error())
	case ctx.Err() != nil:
		// cut off: the next life begins the leg again (or asks)
	case res.Status == agents.TaskStatusPending && res.Pending != nil:
		if err := j.store.SetNote(ctx, j.id, "tree:"+res.Pending.ID, res.Tree); err != nil {
			opts.Logf("worker: durable run %s: keep the halted team: %v", j.id, err)
			fail(ctx, j, "the halted team could not be kept")
			return nil
		}
		if err := j.Record(ctx, journal.Entry{Kind: journal.KindSuspend, At: time.Now().UnixMilli(), Turn: leg, Call: teamCall, Request: res.Pending}); err != nil {
			return nil
		}
		return res.Pending
	case res.Status == agents.TaskStatusError:
		fail(ctx, j, "the agent run failed: "+res.Text)
	default:
		status := core.StatusDone
		if res.Status != agents.TaskStatusDone {
			status = core.StatusIncomplete
		}
		j.Record(ctx, journal.Entry{Kind: journal.KindEnd, At: time.Now().UnixMilli(), Status: status, Text: res.Text})
	}
	return nil
}

// teamAnswer is the answer the halted tree resumes with. An answer to an
// outcome question becomes one to the approval it is about: run again
// (the approval's own answer), not done (a decline saying so), or done (the
// result the person gave stands in for the call).
func teamAnswer(halt *core.Request, ans core.Answer, answers map[string]*core.Answer) core.Answer {
	if halt.Kind != core.KindOutcomeUnknown {
		return ans
	}
	approvalID, _ := halt.Data["approval"].(string)
	approval := answers[approvalID]
	switch {
	case !ans.Ok:
		reason := ans.Reason
		if reason == "" {
			reason = "no reason given"
		}
		return core.AnswerDeclined(approvalID, "the run stopped while this call ran, and a person recorded it as not done: "+reason)
	case ans.Data["outcome"] == "rerun" && approval != nil:
		return *approval
	}
	out, _ := ans.Data["output"].(string)
	if out == "" {
		out = "the call completed (recorded by a person: the run stopped while it ran)"
	}
	isErr, _ := ans.Data["isError"].(bool)
	return core.Answer{ID: approvalID, Ok: true, Recorded: &core.ToolResult{Output: out, IsError: isErr}}
}

// teamUnknown is the question about the approved call of halt, whose leg
// was cut off attempts times.
func teamUnknown(halt *core.Request, attempts int) *core.Request {
	tool, _ := halt.Data["tool"].(string)
	args, _ := halt.Data["args"].(map[string]any)
	if args == nil {
		args = map[string]any{}
	}
	argText, _ := worker.MarshalJSON(args)
	data := map[string]any{"tool": tool, "args": args, "callId": halt.Data["callId"], "approval": halt.ID,
		"attempts": float64(attempts), "choices": []any{"happened", "rerun", "failed"}}
	if p, ok := halt.Data["path"]; ok {
		data["path"] = p
	}
	return &core.Request{ID: "unk_" + halt.ID + "_" + strconv.Itoa(attempts), Kind: core.KindOutcomeUnknown,
		Prompt: tool + " " + string(argText) + " was running when the run stopped: did it happen?", Data: data}
}

// idempotentTool reports whether the tool an approval request is about
// is declared idempotent in the Worker's tool set.
func idempotentTool(h *worker.Handler, ctx context.Context, meta runMeta, req *core.Request) bool {
	name, _ := req.Data["tool"].(string)
	tk, err := h.NewToolkit(ctx, meta.Workspace)
	if err != nil {
		return false
	}
	defer tk.Close()
	t, ok := tk.Get(name)
	return ok && t.Idempotent
}
