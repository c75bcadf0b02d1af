package uiproto

import (
	"sync/atomic"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// The readers of the API's answers and UI streams that products' tests
// share.
var (
	decodeMap  = workertest.DecodeMap
	errCode    = workertest.ErrCode
	chunkTypes = workertest.ChunkTypes
	chunkOf    = workertest.ChunkOf
	uiUser     = workertest.UIUser
	uiAnswered = workertest.UIAnswered
	uiBody     = workertest.JSON
)

// harness is a Worker with the UI protocol mounted, on the scripted model
// (workertest.Harness: its clock, never advanced here), with a count of refund
// executions.
type harness struct {
	*workertest.Harness
	t       *testing.T
	llm     *workertest.ScriptedLLM
	refunds atomic.Int32
}

// newHarness builds a harness; edit changes the environment first.
func newHarness(t *testing.T, edit func(env map[string]string)) *harness {
	t.Helper()
	base := workertest.NewHarness(t, edit)
	hs := &harness{Harness: base, t: t, llm: base.LLM}
	spent := worker.NewMemorySpentStore()
	spent.Now = base.Now
	base.Handler = worker.NewHandler(worker.Options{
		Getenv:    base.Getenv,
		Transport: workertest.Transport(hs.llm),
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
