package runs

import (
	"sync/atomic"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// decodeMap reads a JSON answer into a map (workertest.DecodeMap).
var decodeMap = workertest.DecodeMap

// harness is a Worker with durable runs mounted on the scripted model
// (workertest.Harness), with a settable clock, a count of refund
// executions and a transport a test can wrap.
type harness struct {
	*workertest.Harness
	t         *testing.T
	llm       *workertest.ScriptedLLM
	refunds   atomic.Int32
	transport core.Transport
}

// newHarness builds a harness; edit changes the environment first. Its
// spent store runs on the harness clock; its run store is the handler's
// own MemoryRunStore.
func newHarness(t *testing.T, edit func(env map[string]string)) *harness {
	t.Helper()
	base := workertest.NewHarness(t, edit)
	hs := &harness{Harness: base, t: t, llm: base.LLM, transport: workertest.Transport(base.LLM)}
	spent := worker.NewMemorySpentStore()
	spent.Now = base.Now
	base.Handler = worker.NewHandler(worker.Options{
		Getenv:    base.Getenv,
		Transport: workertest.Swappable(&hs.transport),
		Tools:     hs.countingTools,
		Spent:     func() worker.SpentStore { return spent },
		Now:       base.Now,
		Logf:      base.Logf,
	}, Mount)
	return hs
}

// countingTools is DefaultTools with refund counting its executions.
func (hs *harness) countingTools(env worker.ToolEnv) []core.Tool {
	return workertest.CountRefunds(worker.DefaultTools(env), &hs.refunds)
}
