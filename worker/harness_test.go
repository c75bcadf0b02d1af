package worker

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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
)

// The readers of the API's answers that products' tests share.
var (
	decodeMap = workertest.DecodeMap
	errCode   = workertest.ErrCode
	pendingID = workertest.PendingID
)

// harness is one Handler wired to a scripted LLM, with a settable clock,
// captured logs and a count of refund executions.
type harness struct {
	t       *testing.T
	llm     *workertest.ScriptedLLM
	env     map[string]string
	h       *Handler
	refunds atomic.Int32
	now     atomic.Int64 // unix seconds

	mu   sync.Mutex
	logs []string
}

// newHarness builds a harness; edit changes the environment first.
func newHarness(t *testing.T, edit func(env map[string]string)) *harness {
	t.Helper()
	hs := &harness{t: t, llm: workertest.NewScriptedLLM(t)}
	hs.now.Store(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).Unix())
	hs.env = map[string]string{
		"LLM_BASE_URL": hs.llm.URL() + "/v1",
		"LLM_MODEL":    "mock-model",
		"LLM_API_KEY":  testAPIKey,
		"STATE_SECRET": testSecret,
		"LLM_RETRIES":  "0",
	}
	if edit != nil {
		edit(hs.env)
	}
	clock := func() time.Time { return time.Unix(hs.now.Load(), 0) }
	spent := NewMemorySpentStore()
	spent.now = clock
	hs.h = NewHandler(Options{
		Getenv:    func(k string) string { return hs.env[k] },
		Transport: workertest.Transport(hs.llm),
		Tools:     hs.countingTools,
		Spent:     func() SpentStore { return spent },
		Now:       clock,
		Logf: func(format string, args ...any) {
			hs.mu.Lock()
			hs.logs = append(hs.logs, fmt.Sprintf(format, args...))
			hs.mu.Unlock()
		},
	})
	t.Cleanup(hs.checkLogs)
	return hs
}

// countingTools is DefaultTools with refund counting its executions.
func (hs *harness) countingTools(env ToolEnv) []core.Tool { return refundCounting(&hs.refunds)(env) }

// refundCounting returns DefaultTools with refund adding each of its
// executions to n.
func refundCounting(n *atomic.Int32) func(ToolEnv) []core.Tool {
	return func(env ToolEnv) []core.Tool {
		tools := DefaultTools(env)
		for i, t := range tools {
			if t.Name == "refund" {
				exec := t.Execute
				tools[i].Execute = func(args map[string]any, ctx *core.ToolContext) (core.ToolResult, error) {
					n.Add(1)
					return exec(args, ctx)
				}
			}
		}
		return tools
	}
}

// advance moves the clock.
func (hs *harness) advance(d time.Duration) { hs.now.Add(int64(d / time.Second)) }

// do serves one request; headers are name, value pairs (a POST says
// Content-Type: application/json unless they set another or ""). It fails
// the test when a secret shows up in the response.
func (hs *harness) do(method, path, body string, headers ...string) *httptest.ResponseRecorder {
	hs.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" || method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	hs.h.ServeHTTP(rec, req)
	hs.noSecrets("response to "+method+" "+path, rec.Body.String()+fmt.Sprint(rec.Header()))
	return rec
}

// post sends v as JSON and decodes the JSON reply into a map.
func (hs *harness) post(path string, v any, headers ...string) (int, map[string]any) {
	hs.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		hs.t.Fatal(err)
	}
	rec := hs.do(http.MethodPost, path, string(b), headers...)
	return rec.Code, decodeMap(hs.t, rec)
}

func (hs *harness) noSecrets(where, s string) {
	hs.t.Helper()
	for _, secret := range []string{testAPIKey, testSecret, testAPIToken} {
		if strings.Contains(s, secret) {
			hs.t.Errorf("%s contains a secret: %q", where, s)
		}
	}
}

func (hs *harness) checkLogs() {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	hs.noSecrets("log", strings.Join(hs.logs, "\n"))
}
