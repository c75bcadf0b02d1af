package worker

import (
	"net/http"
	"strings"
	"testing"
)

func TestBadRequests(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["MAX_BODY_BYTES"] = "2048" })
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund"})
	state, _ := run["state"].(string)
	big := `{"prompt":"` + strings.Repeat("x", 4096) + `"}`
	tests := []struct {
		name     string
		method   string
		path     string
		body     string
		wantCode int
		wantErr  string
	}{
		{"not json", http.MethodPost, "/v1/run", `{"prompt":`, 400, "bad_json"},
		{"empty body", http.MethodPost, "/v1/run", ``, 400, "bad_json"},
		{"array body", http.MethodPost, "/v1/run", `[]`, 400, "bad_json"},
		{"unknown field", http.MethodPost, "/v1/run", `{"prompt":"hi","promt":"x"}`, 400, "bad_json"},
		{"trailing data", http.MethodPost, "/v1/run", `{"prompt":"hi"} {}`, 400, "bad_json"},
		{"missing prompt", http.MethodPost, "/v1/run", `{}`, 400, "missing_field"},
		{"blank prompt", http.MethodPost, "/v1/run", `{"prompt":"  "}`, 400, "missing_field"},
		{"oversized", http.MethodPost, "/v1/run", big, 413, "body_too_large"},
		{"missing state", http.MethodPost, "/v1/resume", `{"answer":{"id":"x","ok":true}}`, 400, "missing_field"},
		{"missing answer", http.MethodPost, "/v1/resume", `{"state":"` + state + `"}`, 400, "missing_field"},
		{"missing answer id", http.MethodPost, "/v1/resume", `{"state":"` + state + `","answer":{"ok":true}}`, 400, "missing_field"},
		{"missing answer ok", http.MethodPost, "/v1/resume", `{"state":"` + state + `","answer":{"id":"` + pendingID(run) + `"}}`, 400, "missing_field"},
		{"mismatched answer id", http.MethodPost, "/v1/resume", `{"state":"` + state + `","answer":{"id":"req_other","ok":true}}`, 400, "answer_mismatch"},
		{"garbage state", http.MethodPost, "/v1/resume", `{"state":"abc","answer":{"id":"x","ok":true}}`, 400, "state_malformed"},
		{"unknown route", http.MethodGet, "/v2/run", ``, 404, "not_found"},
		{"root", http.MethodGet, "/", ``, 404, "not_found"},
		{"GET run", http.MethodGet, "/v1/run", ``, 405, "method_not_allowed"},
		{"DELETE tools", http.MethodDelete, "/v1/tools", ``, 405, "method_not_allowed"},
		{"POST healthz", http.MethodPost, "/healthz", `{}`, 405, "method_not_allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := hs.Do(tt.method, tt.path, tt.body)
			if rec.Code != tt.wantCode {
				t.Fatalf("code = %d, want %d: %s", rec.Code, tt.wantCode, rec.Body)
			}
			if got := errCode(decodeMap(t, rec)); got != tt.wantErr {
				t.Fatalf("error code = %q, want %q: %s", got, tt.wantErr, rec.Body)
			}
			if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				t.Fatalf("content type %q", rec.Header().Get("Content-Type"))
			}
			if tt.wantCode == 405 && rec.Header().Get("Allow") == "" {
				t.Fatal("405 without Allow")
			}
		})
	}
	if n := hs.refunds.Load(); n != 0 {
		t.Fatalf("a refused request ran the refund %d times", n)
	}
}

func TestRefusedTokensRunNothing(t *testing.T) {
	hs := newHarness(t, nil)
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund"})
	state := run["state"].(string)
	calls := len(hs.llm.Requests())
	answer := map[string]any{"id": pendingID(run), "ok": true}

	foreign := newHarness(t, func(env map[string]string) { env["STATE_SECRET"] = "a-different-secret-0123456789abcdef0123" })
	_, other := foreign.Post("/v1/run", map[string]any{"prompt": "refund"})

	parts := strings.Split(state, ".")
	tampered := parts[0] + "." + parts[1][:len(parts[1])-2] + "xx." + parts[2]
	for name, tc := range map[string]struct {
		token string
		want  string
	}{
		"tampered":       {tampered, "state_invalid"},
		"foreign secret": {other["state"].(string), "state_invalid"},
	} {
		code, body := hs.Post("/v1/resume", map[string]any{"state": tc.token, "answer": answer})
		if code != http.StatusBadRequest || errCode(body) != tc.want {
			t.Errorf("%s: %d %v", name, code, body)
		}
	}
	hs.Advance(DefaultStateTTL)
	code, body := hs.Post("/v1/resume", map[string]any{"state": state, "answer": answer})
	if code != http.StatusBadRequest || errCode(body) != "state_expired" {
		t.Errorf("expired: %d %v", code, body)
	}
	if hs.refunds.Load() != 0 || len(hs.llm.Requests()) != calls {
		t.Fatalf("a refused token ran something: refunds %d, LLM calls %d -> %d", hs.refunds.Load(), calls, len(hs.llm.Requests()))
	}
}

func TestMissingSettingIs500NamingIt(t *testing.T) {
	for _, setting := range []string{"LLM_BASE_URL", "LLM_MODEL", "LLM_API_KEY", "STATE_SECRET"} {
		t.Run(setting, func(t *testing.T) {
			hs := newHarness(t, func(env map[string]string) { delete(env, setting) })
			for _, path := range []string{"/v1/run", "/v1/resume"} {
				rec := hs.Do(http.MethodPost, path, `{"prompt":"hi"}`)
				if rec.Code != http.StatusInternalServerError || errCode(decodeMap(t, rec)) != "config" || !strings.Contains(rec.Body.String(), setting) {
					t.Fatalf("%s = %d %s", path, rec.Code, rec.Body)
				}
			}
			if rec := hs.Do(http.MethodGet, "/healthz", ""); rec.Code != http.StatusOK {
				t.Fatalf("healthz = %d", rec.Code)
			}
		})
	}
}
