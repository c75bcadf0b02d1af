package teams

import (
	"sync/atomic"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/internal/workertest"
	"github.com/toolnexus/wasm/worker/uiproto"
)

// The readers of the API's answers and UI streams that products' tests
// share.
var (
	errCode    = workertest.ErrCode
	pendingID  = workertest.PendingID
	chunkTypes = workertest.ChunkTypes
	chunkOf    = workertest.ChunkOf
	uiUser     = workertest.UIUser
	uiAnswered = workertest.UIAnswered
	uiBody     = workertest.JSON
)

// harness is a Worker with teams and the UI protocol mounted (uiproto
// reaches teams through worker's TeamRunner, so neither imports the other
// and this test may mount both) and AGENTS set
// (workertest.TeamAgents) on the scripted model, with a settable clock, a
// count of refund executions, and a tree store and transport a test can
// swap.
type harness struct {
	*workertest.Harness
	t         *testing.T
	env       map[string]string
	refunds   atomic.Int32
	trees     worker.TreeStore
	transport core.Transport
}

// newTeamHarness builds a harness; its in-memory tree store (returned) and
// its spent store run on the harness clock.
func newTeamHarness(t *testing.T) (*harness, *worker.MemoryTreeStore) {
	t.Helper()
	base := workertest.NewHarness(t, func(env map[string]string) { env["AGENTS"] = workertest.TeamAgents })
	hs := &harness{Harness: base, t: t, env: base.Env, transport: workertest.Transport(base.LLM)}
	spent := worker.NewMemorySpentStore()
	spent.Now = base.Now
	trees := worker.NewMemoryTreeStore()
	trees.Now = base.Now
	hs.trees = trees
	base.Handler = worker.NewHandler(worker.Options{
		Getenv:    base.Getenv,
		Transport: workertest.Swappable(&hs.transport),
		Tools:     hs.countingTools,
		Spent:     func() worker.SpentStore { return spent },
		Trees:     func() worker.TreeStore { return hs.trees },
		Now:       base.Now,
		Logf:      base.Logf,
	}, Mount, uiproto.Mount)
	return hs, trees
}

// countingTools is DefaultTools with refund counting its executions.
func (hs *harness) countingTools(env worker.ToolEnv) []core.Tool {
	return workertest.CountRefunds(worker.DefaultTools(env), &hs.refunds)
}
