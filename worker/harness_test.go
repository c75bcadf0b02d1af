package worker

import (
	"sync/atomic"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// Secrets the tests configure; no response body, header or log line may
// contain any of them.
const (
	testAPIKey   = workertest.APIKey
	testSecret   = workertest.Secret
	testAPIToken = workertest.APIToken
	// testAgents is the team the AGENTS tests parse.
	testAgents = workertest.TeamAgents
)

// The readers of the API's answers that products' tests share.
var (
	decodeMap = workertest.DecodeMap
	errCode   = workertest.ErrCode
	pendingID = workertest.PendingID
)

// harness is one Handler wired to a scripted LLM (workertest.Harness: the
// environment, captured logs, secret checks), with a settable clock and a
// count of refund executions.
type harness struct {
	*workertest.Harness
	t       *testing.T
	llm     *workertest.ScriptedLLM
	env     map[string]string
	h       *Handler
	refunds atomic.Int32
}

// newHarness builds a harness; edit changes the environment first.
func newHarness(t *testing.T, edit func(env map[string]string)) *harness {
	t.Helper()
	base := workertest.NewHarness(t, edit)
	hs := &harness{Harness: base, t: t, llm: base.LLM, env: base.Env}
	spent := NewMemorySpentStore()
	spent.Now = base.Now
	hs.h = NewHandler(Options{
		Getenv:    base.Getenv,
		Transport: workertest.Transport(hs.llm),
		Tools:     hs.countingTools,
		Spent:     func() SpentStore { return spent },
		Now:       base.Now,
		Logf:      base.Logf,
	})
	base.Handler = hs.h
	return hs
}

// countingTools is DefaultTools with refund counting its executions.
func (hs *harness) countingTools(env ToolEnv) []core.Tool { return refundCounting(&hs.refunds)(env) }

// refundCounting returns DefaultTools with refund adding each of its
// executions to n.
func refundCounting(n *atomic.Int32) func(ToolEnv) []core.Tool {
	return func(env ToolEnv) []core.Tool { return workertest.CountRefunds(DefaultTools(env), n) }
}
