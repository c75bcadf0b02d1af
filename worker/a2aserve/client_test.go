//go:build !(js && wasm)

package a2aserve

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/worker/internal/workertest"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// TestOurA2AToolsCallTheWorker: core/a2a's tools — how a tab, a Go
// program or another Worker calls remote agents — against this package
// over HTTP. The card's skills are tools; a team skill's approval becomes
// our own request; approving it continues the Worker's task, which runs
// the refund once; a decline cancels the Worker's task, whose model reads
// it.
func TestOurA2AToolsCallTheWorker(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["AGENTS"] = workertest.TeamAgents
		env["API_TOKEN"] = workertest.APIToken
	})
	srv := httptest.NewServer(nethttp.Handler(hs.h))
	defer srv.Close()
	agents, err := a2a.Parse([]byte(`{"worker": {"card": "` + srv.URL + CardRoute + `", "headers": {"authorization": "Bearer ` + workertest.APIToken + `"}, "pollEvery": 20, "timeout": 20000}}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tools, status := a2a.Tools(ctx, agents, tool.A2AEnv{})
	byName := map[string]tool.Tool{}
	var names []string
	for _, tl := range tools {
		byName[tl.Name] = tl
		names = append(names, tl.Name)
	}
	if status["worker"].Status != tool.MCPConnected || strings.Join(names, ",") != "toolnexus_agent,toolnexus_support,toolnexus_billing" {
		t.Fatalf("tools %v, status %+v", names, status)
	}

	support := byName["toolnexus_support"]
	args := map[string]any{"task": "review order 42"}
	res, err := support.Execute(args, &tool.ToolContext{Ctx: ctx})
	req := core.PendingOf(res)
	if err != nil || req == nil || req.Kind != tool.KindInput || !strings.Contains(req.Prompt, `"refund"`) {
		t.Fatalf("the team's approval = %+v, %v", res, err)
	}
	res, err = support.Execute(args, &tool.ToolContext{Ctx: ctx, Answer: &core.Answer{ID: req.ID, Ok: true}})
	if err != nil || res.IsError || !strings.Contains(res.Output, "refunded order 42") || hs.refunds.Load() != 1 {
		t.Fatalf("approved: %+v, %v (refunds %d)", res, err, hs.refunds.Load())
	}

	agent := byName["toolnexus_agent"]
	args = map[string]any{"task": "refund order 42"}
	res, _ = agent.Execute(args, &tool.ToolContext{Ctx: ctx})
	req = core.PendingOf(res)
	if req == nil {
		t.Fatalf("the agent's approval = %+v", res)
	}
	taskID, _ := req.Data["taskId"].(string)
	res, _ = agent.Execute(args, &tool.ToolContext{Ctx: ctx, Answer: &core.Answer{ID: req.ID, Ok: false, Reason: "not this one"}})
	if !res.IsError || !strings.Contains(res.Output, "declined: not this one") || !strings.Contains(res.Output, "was cancelled") {
		t.Fatalf("declined: %+v", res)
	}
	done := hs.waitTask(taskID, "TASK_STATE_COMPLETED")
	if !strings.Contains(answerText(done), "the A2A client cancelled the task") || hs.refunds.Load() != 1 {
		t.Fatalf("the Worker's task after the decline: %s (refunds %d)", done.Raw, hs.refunds.Load())
	}
}
