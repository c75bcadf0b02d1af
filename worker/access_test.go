package worker

import (
	"net/http"
	"strings"
	"testing"
)

func TestAPITokenEnforced(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["API_TOKEN"] = testAPIToken })
	tests := []struct {
		name   string
		method string
		path   string
		auth   string
		want   int
	}{
		{"no token", http.MethodGet, "/v1/tools", "", http.StatusUnauthorized},
		{"wrong token", http.MethodGet, "/v1/tools", "Bearer nope", http.StatusUnauthorized},
		{"not bearer", http.MethodGet, "/v1/tools", "Basic " + testAPIToken, http.StatusUnauthorized},
		{"right token", http.MethodGet, "/v1/tools", "Bearer " + testAPIToken, http.StatusOK},
		{"run without token", http.MethodPost, "/v1/run", "", http.StatusUnauthorized},
		{"resume without token", http.MethodPost, "/v1/resume", "", http.StatusUnauthorized},
		{"healthz is open", http.MethodGet, "/healthz", "", http.StatusOK},
		{"metrics is open", http.MethodGet, "/metrics", "", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := hs.Do(tt.method, tt.path, `{"prompt":"hi"}`, "Authorization", tt.auth)
			if rec.Code != tt.want {
				t.Fatalf("%s %s = %d, want %d: %s", tt.method, tt.path, rec.Code, tt.want, rec.Body)
			}
			if tt.want == http.StatusUnauthorized && rec.Header().Get("WWW-Authenticate") == "" {
				t.Fatal("401 without WWW-Authenticate")
			}
		})
	}
}

func TestCORS(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["ALLOWED_ORIGINS"] = "https://app.example, https://admin.example/"
		env["API_TOKEN"] = testAPIToken
	})
	preflight := func(origin string) *http.Response {
		rec := hs.Do(http.MethodOptions, "/v1/run", "", "Origin", origin,
			"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type")
		return rec.Result()
	}
	ok := preflight("https://admin.example")
	if ok.StatusCode != http.StatusNoContent || ok.Header.Get("Access-Control-Allow-Origin") != "https://admin.example" ||
		!strings.Contains(ok.Header.Get("Access-Control-Allow-Methods"), "POST") ||
		!strings.Contains(strings.ToLower(ok.Header.Get("Access-Control-Allow-Headers")), "authorization") {
		t.Fatalf("allowed preflight = %d %v", ok.StatusCode, ok.Header)
	}
	bad := preflight("https://evil.example")
	if bad.StatusCode != http.StatusForbidden || bad.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("refused preflight = %d %v", bad.StatusCode, bad.Header)
	}
	// A simple cross-site POST skips the preflight: it must not run either.
	rec := hs.Do(http.MethodPost, "/v1/run", `{"prompt":"refund"}`, "Origin", "https://evil.example", "Content-Type", "text/plain")
	if rec.Code != http.StatusForbidden || len(hs.llm.Requests()) != 0 {
		t.Fatalf("cross-site POST = %d, LLM calls %d", rec.Code, len(hs.llm.Requests()))
	}
	rec = hs.Do(http.MethodGet, "/v1/tools", "", "Origin", "https://app.example", "Authorization", "Bearer "+testAPIToken)
	if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "https://app.example" || rec.Header().Get("Vary") != "Origin" {
		t.Fatalf("allowed GET = %d %v", rec.Code, rec.Header())
	}
}

func TestCORSWildcard(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["ALLOWED_ORIGINS"] = "*" })
	rec := hs.Do(http.MethodOptions, "/v1/resume", "", "Origin", "https://any.example", "Access-Control-Request-Method", "POST")
	if rec.Code != http.StatusNoContent || rec.Header().Get("Access-Control-Allow-Origin") != "https://any.example" {
		t.Fatalf("preflight = %d %v", rec.Code, rec.Header())
	}
}

func TestNoOriginsConfiguredRefusesBrowsers(t *testing.T) {
	hs := newHarness(t, nil)
	if rec := hs.Do(http.MethodGet, "/v1/tools", "", "Origin", "https://app.example"); rec.Code != http.StatusForbidden {
		t.Fatalf("GET with Origin = %d", rec.Code)
	}
	if rec := hs.Do(http.MethodGet, "/v1/tools", ""); rec.Code != http.StatusOK {
		t.Fatalf("GET without Origin = %d", rec.Code)
	}
}

func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["API_TOKEN"] = testAPIToken })
	for _, tt := range []struct {
		auth string
		want int
	}{
		{"Bearer " + testAPIToken, http.StatusOK},
		{"bearer " + testAPIToken, http.StatusOK},
		{"BEARER " + testAPIToken, http.StatusOK},
		{"bEaReR " + testAPIToken, http.StatusOK},
		{"Bearer   " + testAPIToken + " ", http.StatusOK},
		{"Bearer\t" + testAPIToken, http.StatusOK},
		{"Bearer" + testAPIToken, http.StatusUnauthorized},
		{"Bearer", http.StatusUnauthorized},
		{"Bearer ", http.StatusUnauthorized},
		{"Basic " + testAPIToken, http.StatusUnauthorized},
		{"Bearers " + testAPIToken, http.StatusUnauthorized},
		{testAPIToken, http.StatusUnauthorized},
		{"bearer " + strings.ToUpper(testAPIToken), http.StatusUnauthorized},
	} {
		if rec := hs.Do(http.MethodGet, "/v1/tools", "", "Authorization", tt.auth); rec.Code != tt.want {
			t.Errorf("Authorization %q = %d, want %d", tt.auth, rec.Code, tt.want)
		}
	}
}
