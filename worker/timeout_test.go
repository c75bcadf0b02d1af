package worker

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// TestStalledUpstreamIs504 pins LLM_TIMEOUT_SECONDS: a provider that stops
// answering mid-run ends the request with 504 upstream_timeout and the
// partial result, instead of holding it open.
func TestStalledUpstreamIs504(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["LLM_TIMEOUT_SECONDS"] = "1" })
	// The transport answers the first turn with a call of add and never
	// answers the second (the one carrying the tool result).
	llm := &workertest.ScriptedLLM{}
	hs.h.opts.Transport = core.TransportFunc(func(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
		if strings.Contains(string(req.Body), `"role":"tool"`) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		rec := httptest.NewRecorder()
		llm.Reply(rec, false, "", "add", `{"a":2,"b":3}`)
		return &core.HTTPResponse{Status: rec.Code, Header: map[string]string{"content-type": "application/json"}, Body: io.NopCloser(rec.Body)}, nil
	})
	start := time.Now()
	code, res := hs.Post("/v1/run", map[string]any{"prompt": "add 2 and 3"})
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("the run took %v", took)
	}
	result, _ := res["result"].(map[string]any)
	calls, _ := result["toolCalls"].([]any)
	if code != http.StatusGatewayTimeout || errCode(res) != "upstream_timeout" || len(calls) != 1 {
		t.Fatalf("stalled upstream = %d %v", code, res)
	}
}

func TestTimeoutSetting(t *testing.T) {
	env := map[string]string{"LLM_BASE_URL": "https://x/v1", "LLM_MODEL": "m", "LLM_API_KEY": "k", "STATE_SECRET": testSecret}
	c, err := LoadConfig(func(k string) string { return env[k] })
	if err != nil || c.Timeout != DefaultRunTimeout {
		t.Fatalf("default timeout = %v, %v", c.Timeout, err)
	}
	env["LLM_TIMEOUT_SECONDS"] = "0"
	if _, err := LoadConfig(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "LLM_TIMEOUT_SECONDS") {
		t.Fatalf("LLM_TIMEOUT_SECONDS=0: %v", err)
	}
}
