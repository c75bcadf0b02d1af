package worker

import (
	"net/http"
	"testing"
)

func TestJSONRoutesRequireJSONContentType(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["API_TOKEN"] = testAPIToken })
	auth := "Bearer " + testAPIToken
	// /mcp's and /v1/chat/completions's cases are in mcpserver and gateway.
	bodies := map[string]string{
		"/v1/run":    `{"prompt":"refund order 42"}`,
		"/v1/resume": `{"state":"tn1.a.b","answer":{"id":"x","ok":true}}`,
	}
	for path, body := range bodies {
		for _, ct := range []string{"", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=iso-8859-1", "application/json-patch+json", "application/jsonx", "application/json; =bad"} {
			rec := hs.Do(http.MethodPost, path, body, "Authorization", auth, "Content-Type", ct)
			if rec.Code != http.StatusUnsupportedMediaType || errCode(decodeMap(t, rec)) != "unsupported_media_type" {
				t.Errorf("POST %s with Content-Type %q = %d %s", path, ct, rec.Code, rec.Body)
			}
		}
		for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON;Charset=UTF-8", "application/json;charset=\"utf-8\""} {
			if rec := hs.Do(http.MethodPost, path, body, "Authorization", auth, "Content-Type", ct); rec.Code == http.StatusUnsupportedMediaType {
				t.Errorf("POST %s with Content-Type %q = 415", path, ct)
			}
		}
		// Without the bearer token the answer is 401 whatever the type.
		if rec := hs.Do(http.MethodPost, path, body, "Content-Type", "text/plain"); rec.Code != http.StatusUnauthorized {
			t.Errorf("POST %s without a token = %d, want 401", path, rec.Code)
		}
	}
	if n := len(hs.llm.Requests()); n != 4 {
		// one for each accepted /v1/run (it halts)
		t.Errorf("the model saw %d requests, want 4", n)
	}
	if n := hs.refunds.Load(); n != 0 {
		t.Fatalf("refund ran %d times", n)
	}
}
