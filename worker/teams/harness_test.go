package teams

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

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
	now       atomic.Int64 // unix seconds
	trees     worker.TreeStore
	transport core.Transport
}

// newTeamHarness builds a harness; its in-memory tree store (returned) and
// its spent store run on the harness clock.
func newTeamHarness(t *testing.T) (*harness, *worker.MemoryTreeStore) {
	t.Helper()
	base := workertest.NewHarness(t, func(env map[string]string) { env["AGENTS"] = workertest.TeamAgents })
	hs := &harness{Harness: base, t: t, env: base.Env, transport: workertest.Transport(base.LLM)}
	hs.now.Store(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).Unix())
	clock := func() time.Time { return time.Unix(hs.now.Load(), 0) }
	spent := worker.NewMemorySpentStore()
	spent.Now = clock
	trees := worker.NewMemoryTreeStore()
	trees.Now = clock
	hs.trees = trees
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
		Trees: func() worker.TreeStore { return hs.trees },
		Now:   clock,
		Logf:  base.Logf,
	}, Mount, uiproto.Mount)
	return hs, trees
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

// uiChunks is workertest.Harness.UIChunks.
func (hs *harness) uiChunks(body any) []map[string]any {
	hs.t.Helper()
	return hs.UIChunks(body)
}
