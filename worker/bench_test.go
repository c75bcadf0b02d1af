package worker

// BenchmarkServe is the Go side of one Worker request, natively: the
// handler of POST /v1/run with one tool turn ("add 2 and 3": model → add →
// model, both model calls answered in memory) and of GET /healthz, as
// bench/worker.mjs measures them on workerd (issue 35). It reports
// allocations per request next to the time; the Worker's wasm does the
// same work, several times slower.
//
//	go test -run '^$' -bench BenchmarkServe -benchmem ./worker

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// benchModel answers the first call of a run with a call of add and a call
// that carries a tool result with the final text.
var benchModel = core.TransportFunc(func(_ context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
	reply := `{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":2,\"b\":3}"}}]}}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`
	if bytes.Contains(req.Body, []byte(`"role":"tool"`)) {
		reply = `{"id":"c2","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"done: 5"}}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`
	}
	return &core.HTTPResponse{Status: 200, Header: map[string]string{"content-type": "application/json"}, Body: io.NopCloser(strings.NewReader(reply))}, nil
})

func BenchmarkServe(b *testing.B) {
	env := map[string]string{
		"LLM_BASE_URL": "https://model.invalid/v1", "LLM_MODEL": "m", "LLM_API_KEY": "bench-key",
		"STATE_SECRET": "bench-state-secret-0123456789abcdef",
	}
	h := NewHandler(Options{Getenv: func(k string) string { return env[k] }, Transport: benchModel, Logf: func(string, ...any) {}})
	for _, bc := range []struct {
		name, method, path, body, want string
	}{
		{"run", http.MethodPost, "/v1/run", `{"prompt":"add 2 and 3"}`, `"text":"done: 5"`},
		{"healthz", http.MethodGet, "/healthz", "", `"status":"ok"`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			serve := func() *httptest.ResponseRecorder {
				req := httptest.NewRequest(bc.method, bc.path, strings.NewReader(bc.body))
				if bc.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				rec := httptest.NewRecorder()
				nethttp.Handler(h).ServeHTTP(rec, req)
				return rec
			}
			if rec := serve(); rec.Code != 200 || !strings.Contains(rec.Body.String(), bc.want) {
				b.Fatalf("%s %s = %d %s", bc.method, bc.path, rec.Code, rec.Body)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				serve()
			}
		})
	}
}
