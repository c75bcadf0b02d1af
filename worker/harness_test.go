package worker

import (
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

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
	now     atomic.Int64 // unix seconds
}

// newHarness builds a harness; edit changes the environment first.
func newHarness(t *testing.T, edit func(env map[string]string)) *harness {
	t.Helper()
	base := workertest.NewHarness(t, edit)
	hs := &harness{Harness: base, t: t, llm: base.LLM, env: base.Env}
	hs.now.Store(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).Unix())
	clock := func() time.Time { return time.Unix(hs.now.Load(), 0) }
	spent := NewMemorySpentStore()
	spent.Now = clock
	hs.h = NewHandler(Options{
		Getenv:    base.Getenv,
		Transport: workertest.Transport(hs.llm),
		Tools:     hs.countingTools,
		Spent:     func() SpentStore { return spent },
		Now:       clock,
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
