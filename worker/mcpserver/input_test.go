package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/internal/workertest"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// testAPIToken is the bearer the tests' Worker requires.
const testAPIToken = workertest.APIToken

// TestMCPRequiresJSONContentType: /mcp is a JSON route like /v1/run
// (worker's TestJSONRoutesRequireJSONContentType): any other type, or none,
// is 415 with nothing run, and 401 comes first without the token.
func TestMCPRequiresJSONContentType(t *testing.T) {
	env := map[string]string{"API_TOKEN": testAPIToken}
	h := worker.NewHandler(worker.Options{Getenv: func(k string) string { return env[k] }, Logf: t.Logf}, Mount)
	post := func(ct, auth string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", ct)
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		rec := httptest.NewRecorder()
		nethttp.Handler(h).ServeHTTP(rec, req)
		return rec
	}
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=iso-8859-1", "application/jsonx"} {
		if rec := post(ct, testAPIToken); rec.Code != http.StatusUnsupportedMediaType || !strings.Contains(rec.Body.String(), "unsupported_media_type") {
			t.Errorf("Content-Type %q = %d %s", ct, rec.Code, rec.Body)
		}
	}
	for _, ct := range []string{"application/json", "Application/JSON;Charset=UTF-8"} {
		if rec := post(ct, testAPIToken); rec.Code != http.StatusOK {
			t.Errorf("Content-Type %q = %d %s", ct, rec.Code, rec.Body)
		}
	}
	if rec := post("text/plain", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("without a token = %d, want 401", rec.Code)
	}
}

// TestDeepMCPBodyIs400: a body nested past jsonx.MaxDepth is a JSON-RPC
// parse error before anything recursive reads it (issue 15), and the next
// request is served.
func TestDeepMCPBodyIs400(t *testing.T) {
	h := worker.NewHandler(worker.Options{Getenv: func(string) string { return "" }, Logf: t.Logf}, Mount)
	for _, depth := range []int{jsonx.MaxDepth + 2, 20_000, 100_000} {
		deep := strings.Repeat(`{"a":[`, depth/2) + "1" + strings.Repeat(`]}`, depth/2)
		rec := serveMCPOnce(h, `{"jsonrpc":"2.0","id":1,"method":"ping","params":`+deep+`}`)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "-32700") {
			t.Fatalf("depth %d: %d %s", depth, rec.Code, rec.Body.String())
		}
		if rec := serveMCPOnce(h, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); rec.Code != http.StatusOK {
			t.Fatalf("the next request after depth %d: %d %s", depth, rec.Code, rec.Body.String())
		}
	}
}
