package runs

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/internal/workertest"
	"github.com/toolnexus/wasm/worker/teams"
)

// newTeamHarness is newHarness with the team tests' AGENTS and the team
// runner mounted.
func newTeamHarness(t *testing.T) *harness {
	t.Helper()
	base := workertest.NewHarness(t, func(env map[string]string) { env[worker.AgentsSetting] = workertest.TeamAgents })
	hs := &harness{Harness: base, t: t, llm: base.LLM, transport: workertest.Transport(base.LLM)}
	base.Handler = worker.NewHandler(worker.Options{
		Getenv: base.Getenv, Transport: workertest.Swappable(&hs.transport), Tools: hs.countingTools, Now: base.Now, Logf: base.Logf,
	}, teams.Mount, Mount)
	return hs
}

// TestTeamLegCutOffAfterItsApprovalAsks: a team run whose leg began with
// an approval and has no end (its Worker stopped while billing's refund
// ran) is not begun again blindly: the executor asks whether the refund
// happened, and "it happened" goes on with the person's result in place
// of the refund, which does not run.
func TestTeamLegCutOffAfterItsApprovalAsks(t *testing.T) {
	hs := newTeamHarness(t)
	code, started := hs.Post("/v1/runs", map[string]any{"prompt": "review order 42", "agent": "support"})
	if code != http.StatusAccepted {
		t.Fatalf("POST /v1/runs = %d %v", code, started)
	}
	id := started["id"].(string)
	st := hs.waitRun(id, "pending")
	p := st["pending"].(map[string]any)
	if path, _ := p["path"].([]any); len(path) != 2 || path[1] != "billing" {
		t.Fatalf("pending %v", p)
	}
	// The approval, and the leg it began, as a Worker that stopped while
	// the leg ran would have left them: no step after.
	store := hs.Handler.(*worker.Handler).Options().Runs()
	ctx := context.Background()
	answer, err := answerStep(core.Answer{ID: p["id"].(string), Ok: true}, "approval", "link", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Record(ctx, id, answer); err != nil {
		t.Fatal(err)
	}
	leg := journal.Entry{Kind: journal.KindCall, Turn: 2, Call: teamCall, Name: "support", Attempt: 1}
	text, _ := leg.AppendJSON(nil)
	if err := store.Record(ctx, id, worker.RunStep{Key: leg.Key(), Entry: text}); err != nil {
		t.Fatal(err)
	}
	hs.Handler.(*worker.Handler).DriveRun(ctx, id)
	asked := hs.waitRun(id, "pending")["pending"].(map[string]any)
	if asked["kind"] != "outcome_unknown" || asked["tool"] != "refund" || !strings.Contains(asked["request"].(map[string]any)["prompt"].(string), "was running when the run stopped") {
		t.Fatalf("asked %v", asked)
	}
	if path, _ := asked["path"].([]any); len(path) != 2 {
		t.Fatalf("the question does not name billing: %v", asked)
	}
	rec := hs.Do("POST", linkPath(t, asked["approveURL"].(string)), `{"ok":true,"outcome":"happened","output":"refunded order 42 (seen in the ledger)"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("answer = %d %s", rec.Code, rec.Body)
	}
	done := hs.waitRun(id, "done")
	if hs.refunds.Load() != 0 {
		t.Fatalf("the refund ran %d times", hs.refunds.Load())
	}
	if !strings.Contains(done["text"].(string), "seen in the ledger") {
		t.Fatalf("done %v", done)
	}
}

// TestRunMaxSecondsEndsARunawayLeg: a leg older than RUN_MAX_SECONDS (its
// start, or its newest answer) is not run on: the run ends with an error
// that says why.
func TestRunMaxSecondsEndsARunawayLeg(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["RUN_MAX_SECONDS"] = "60" })
	h := hs.Handler.(*worker.Handler)
	store := h.Options().Runs().(*worker.MemoryRunStore)
	store.SetExecutor(nil) // this test runs the executor itself
	code, started := hs.Post("/v1/runs", map[string]any{"prompt": "refund order 42"})
	if code != http.StatusAccepted {
		t.Fatalf("POST /v1/runs = %d %v", code, started)
	}
	id := started["id"].(string)
	hs.Advance(2 * time.Minute)
	h.DriveRun(context.Background(), id)
	st := hs.waitRun(id, "error")
	if msg := st["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "longer than RUN_MAX_SECONDS (60 s)") {
		t.Fatalf("error %q", msg)
	}
	if n := len(hs.llm.Requests()); n != 0 {
		t.Fatalf("the model was called %d times", n)
	}
}
