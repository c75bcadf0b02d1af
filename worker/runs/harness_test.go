package runs

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

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
	now       atomic.Int64 // unix seconds
	transport core.Transport
}

// newHarness builds a harness; edit changes the environment first. Its
// spent store runs on the harness clock; its run store is the handler's
// own MemoryRunStore.
func newHarness(t *testing.T, edit func(env map[string]string)) *harness {
	t.Helper()
	base := workertest.NewHarness(t, edit)
	hs := &harness{Harness: base, t: t, llm: base.LLM, transport: workertest.Transport(base.LLM)}
	hs.now.Store(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).Unix())
	clock := func() time.Time { return time.Unix(hs.now.Load(), 0) }
	spent := worker.NewMemorySpentStore()
	spent.Now = clock
	base.Handler = worker.NewHandler(worker.Options{
		Getenv: base.Getenv,
		Transport: core.TransportFunc(func(ctx context.Context, r *core.HTTPRequest) (*core.HTTPResponse, error) {
			t := hs.transport
			if t == nil { // natively: core's own, as a nil Options.Transport
				t = core.DefaultTransport()
			}
			return t.Do(ctx, r)
		}),
		Tools: hs.countingTools,
		Spent: func() worker.SpentStore { return spent },
		Now:   clock,
		Logf:  base.Logf,
	}, Mount)
	return hs
}

// countingTools is DefaultTools with refund counting its executions.
func (hs *harness) countingTools(env worker.ToolEnv) []core.Tool {
	return workertest.CountRefunds(worker.DefaultTools(env), &hs.refunds)
}

// advance moves the clock.
func (hs *harness) advance(d time.Duration) { hs.now.Add(int64(d / time.Second)) }

// do and post are workertest.Harness's Do and Post.
func (hs *harness) do(method, path, body string, headers ...string) *httptest.ResponseRecorder {
	hs.t.Helper()
	return hs.Do(method, path, body, headers...)
}

func (hs *harness) post(path string, v any, headers ...string) (int, map[string]any) {
	hs.t.Helper()
	return hs.Post(path, v, headers...)
}
