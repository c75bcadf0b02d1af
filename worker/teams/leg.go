package teams

import (
	"context"
	"fmt"

	"github.com/toolnexus/wasm/core/agents"
	"github.com/toolnexus/wasm/worker"
)

// Leg runs one stretch of a durable team run (worker/runs): the declared
// team from the prompt, or the halted tree resumed with the answer, until
// the team halts (the tree's snapshot comes back to be kept with the run)
// or ends, or ctx does.
func (runner) Leg(h *worker.Handler, ctx context.Context, cfg worker.Config, leg worker.TeamLeg) worker.TeamLegResult {
	team, err := buildAgentTeam(h, ctx, cfg, leg.Workspace, leg.Agent, h.AgentMetric)
	if err != nil {
		return worker.TeamLegResult{Err: err}
	}
	if leg.OnDecision != nil {
		team.opts.Approvals = team.tk.Approvals().Derive(team.tk.Approvals().Rules, leg.OnDecision)
	}
	var rt *agents.Runtime
	var run func() agents.TaskResult
	switch {
	case leg.Tree == nil:
		rt = agents.NewRuntime(team.opts)
		run = startAgent(rt, leg.Agent, leg.Prompt)
	case leg.Answer == nil:
		team.tk.Close()
		return worker.TeamLegResult{Err: fmt.Errorf("a halted team resumes with an answer")}
	default:
		if rt, run, err = restoreBegin(leg.Tree, *leg.Answer)(team.opts); err != nil {
			team.tk.Close()
			return worker.TeamLegResult{Err: fmt.Errorf("restore the halted team (is an agent it names no longer declared in %s?): %w", worker.AgentsSetting, err)}
		}
	}
	started := startedTeam{tk: team.tk, rt: rt, run: run}
	defer started.close()
	res := runTeam(ctx, rt, run)
	h.CountRun("runs", res.Status)
	out := worker.TeamLegResult{Status: res.Status, Text: res.Text, Pending: res.Pending}
	if res.Status == agents.TaskStatusPending {
		if out.Tree, err = rt.Snapshot(); err != nil {
			return worker.TeamLegResult{Status: agents.TaskStatusError, Err: fmt.Errorf("snapshot the halted team: %w", err)}
		}
	}
	return out
}
