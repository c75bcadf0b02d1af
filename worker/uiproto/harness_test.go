package uiproto

import (
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

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
// (workertest.Harness), with a fixed clock and a count of refund
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
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	spent := worker.NewMemorySpentStore()
	spent.Now = clock
	base.Handler = worker.NewHandler(worker.Options{
		Getenv:    base.Getenv,
		Transport: workertest.Transport(hs.llm),
		Tools:     hs.countingTools,
		Spent:     func() worker.SpentStore { return spent },
		Now:       clock,
		Logf:      base.Logf,
	}, Mount)
	return hs
}

// countingTools is DefaultTools with refund counting its executions.
func (hs *harness) countingTools(env worker.ToolEnv) []core.Tool {
	return workertest.CountRefunds(worker.DefaultTools(env), &hs.refunds)
}

// do, post and uiChunks are workertest.Harness's Do, Post and UIChunks.
func (hs *harness) do(method, path, body string, headers ...string) *httptest.ResponseRecorder {
	hs.t.Helper()
	return hs.Do(method, path, body, headers...)
}

func (hs *harness) post(path string, v any, headers ...string) (int, map[string]any) {
	hs.t.Helper()
	return hs.Post(path, v, headers...)
}

func (hs *harness) uiChunks(body any) []map[string]any {
	hs.t.Helper()
	return hs.UIChunks(body)
}
