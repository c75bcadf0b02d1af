package gateway

import (
	"net/http"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// TestChatRequiresJSONContentType: /v1/chat/completions is a JSON route
// like /v1/run (worker's TestJSONRoutesRequireJSONContentType): any other
// type, or none, is 415 and the model is not called; 401 comes first
// without the token.
func TestChatRequiresJSONContentType(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["API_TOKEN"] = workertest.APIToken })
	auth := "Bearer " + workertest.APIToken
	body := `{"messages":[{"role":"user","content":"hi"}]}`
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=iso-8859-1", "application/jsonx"} {
		rec := hs.Do(http.MethodPost, "/v1/chat/completions", body, "Authorization", auth, "Content-Type", ct)
		if rec.Code != http.StatusUnsupportedMediaType || workertest.ErrCode(workertest.DecodeMap(t, rec)) != "unsupported_media_type" {
			t.Errorf("Content-Type %q = %d %s", ct, rec.Code, rec.Body)
		}
	}
	for _, ct := range []string{"application/json", "Application/JSON;Charset=UTF-8"} {
		if rec := hs.Do(http.MethodPost, "/v1/chat/completions", body, "Authorization", auth, "Content-Type", ct); rec.Code != http.StatusOK {
			t.Errorf("Content-Type %q = %d %s", ct, rec.Code, rec.Body)
		}
	}
	if rec := hs.Do(http.MethodPost, "/v1/chat/completions", body, "Content-Type", "text/plain"); rec.Code != http.StatusUnauthorized {
		t.Errorf("without a token = %d, want 401", rec.Code)
	}
	if n := len(hs.LLM.Requests()); n != 2 {
		t.Errorf("the model saw %d requests, want 2 (one per accepted type)", n)
	}
}

// TestDeepChatBodyIs400: a body nested past jsonx.MaxDepth is 400
// json_too_deep before anything recursive reads it (issue 15), and the
// next request is served.
func TestDeepChatBodyIs400(t *testing.T) {
	hs := newHarness(t, nil)
	for _, depth := range []int{jsonx.MaxDepth + 2, 20_000, 100_000} {
		deep := strings.Repeat(`{"a":[`, depth/2) + "1" + strings.Repeat(`]}`, depth/2)
		rec := hs.Do(http.MethodPost, "/v1/chat/completions", `{"messages":[{"role":"user","content":"hi","x":`+deep+`}]}`)
		if rec.Code != http.StatusBadRequest || workertest.ErrCode(workertest.DecodeMap(t, rec)) != "json_too_deep" {
			t.Fatalf("depth %d: %d %s", depth, rec.Code, rec.Body.String())
		}
		if code, res := hs.Post("/v1/chat/completions", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi"}}}); code != http.StatusOK {
			t.Fatalf("the next request after depth %d: %d %v", depth, code, res)
		}
	}
}
