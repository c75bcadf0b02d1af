package worker

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// problemSettings returns the "setting" of each entry of a problems list.
func problemSettings(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("problems is %T, want a list: %v", v, v)
	}
	var out []string
	for _, p := range list {
		m, _ := p.(map[string]any)
		s, _ := m["setting"].(string)
		if m["problem"] == "" || m["problem"] == nil {
			t.Errorf("problem without a text: %v", p)
		}
		out = append(out, s)
	}
	return out
}

// A value that must never appear in an answer, a log line or an error.
const badValue = "VALUE-must-not-leak-77"

func TestLoadConfigReportsEveryProblem(t *testing.T) {
	env := map[string]string{
		"LLM_BASE_URL":        "ftp://" + badValue,
		"STATE_SECRET":        badValue,
		"LLM_STYLE":           badValue,
		"STATE_TTL_SECONDS":   badValue,
		"MAX_TURNS":           "0",
		"LLM_RETRIES":         "-1",
		"MAX_BODY_BYTES":      badValue,
		"LLM_TIMEOUT_SECONDS": "-5",
	}
	_, err := LoadConfig(func(k string) string { return env[k] })
	errs, ok := errors.AsType[ConfigErrors](err)
	if !ok {
		t.Fatalf("err = %T %v, want ConfigErrors", err, err)
	}
	var got []string
	for _, ce := range errs {
		got = append(got, ce.Setting)
	}
	want := []string{"LLM_MODEL", "LLM_API_KEY", "LLM_BASE_URL", "STATE_SECRET", "LLM_STYLE", "STATE_TTL_SECONDS", "MAX_TURNS", "LLM_RETRIES", "MAX_BODY_BYTES", "LLM_TIMEOUT_SECONDS"}
	if !slices.Equal(got, want) {
		t.Fatalf("problems %v\nwant      %v", got, want)
	}
	if strings.Contains(err.Error(), badValue) {
		t.Fatalf("the error shows a value: %v", err)
	}
}

// One request with a broken configuration names every problem, model,
// toolkit and conversation settings alike, and never a value.
func TestConfigErrorNamesEveryProblem(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		delete(env, "LLM_API_KEY")
		env["STATE_SECRET"] = badValue
		env["MAX_TURNS"] = badValue
		env["BUILTINS"] = "read,nonesuch" // names tools, which are no secret
		env["MCP_CONFIG"] = `{"mcpServers": {"docs": {"url": "https://x.example/mcp", "type": "carrier-pigeon", "headers": {"authorization": "` + badValue + `"}}}}`
		env["CONVERSATION_TTL_SECONDS"] = badValue
	})
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "hi"})
	if code != http.StatusInternalServerError || errCode(body) != "config" {
		t.Fatalf("run = %d %v", code, body)
	}
	e := body["error"].(map[string]any)
	got := problemSettings(t, e["problems"])
	want := []string{"LLM_API_KEY", "STATE_SECRET", "MAX_TURNS", "BUILTINS", "MCP_CONFIG", "CONVERSATION_TTL_SECONDS"}
	if !slices.Equal(got, want) {
		t.Fatalf("problems %v, want %v", got, want)
	}
	for _, s := range want {
		if !strings.Contains(e["message"].(string), s) {
			t.Errorf("message does not name %s: %s", s, e["message"])
		}
	}
	rec := hs.Do(http.MethodGet, "/readyz", "")
	for _, s := range []string{hs.Do(http.MethodPost, "/v1/run", `{"prompt":"hi"}`).Body.String(), rec.Body.String(), strings.Join(hs.Logs(), "\n")} {
		if strings.Contains(s, badValue) {
			t.Fatalf("a value leaked: %s", s)
		}
	}
	if len(hs.llm.Requests()) != 0 {
		t.Fatal("a misconfigured Worker called the model")
	}
}

func TestReadiness(t *testing.T) {
	t.Run("ready", func(t *testing.T) {
		hs := newHarness(t, nil)
		rec := hs.Do(http.MethodGet, "/readyz", "")
		body := decodeMap(t, rec)
		if rec.Code != http.StatusOK || body["status"] != "ready" || body["run"] != true || body["resume"] != true {
			t.Fatalf("readyz = %d %v", rec.Code, body)
		}
		if got := problemSettings(t, body["problems"]); len(got) != 0 {
			t.Fatalf("problems %v", got)
		}
		health := decodeMap(t, hs.Do(http.MethodGet, "/healthz", ""))
		if health["status"] != "ok" || health["ready"] != true {
			t.Fatalf("healthz = %v", health)
		}
	})
	t.Run("settings missing", func(t *testing.T) {
		hs := newHarness(t, func(env map[string]string) {
			delete(env, "LLM_MODEL")
			env["STATE_SECRET"] = badValue
		})
		for range 3 {
			rec := hs.Do(http.MethodGet, "/readyz", "")
			body := decodeMap(t, rec)
			if rec.Code != http.StatusServiceUnavailable || body["status"] != "not_ready" || body["run"] != false || body["resume"] != false {
				t.Fatalf("readyz = %d %v", rec.Code, body)
			}
			if got := problemSettings(t, body["problems"]); !slices.Equal(got, []string{"LLM_MODEL", "STATE_SECRET"}) {
				t.Fatalf("problems %v", got)
			}
		}
		health := hs.Do(http.MethodGet, "/healthz", "")
		if b := decodeMap(t, health); health.Code != http.StatusOK || b["ready"] != false {
			t.Fatalf("healthz = %d %v", health.Code, b)
		}
		// The problems are logged once, on the first request, all in one line.
		var lines []string
		for _, l := range hs.Logs() {
			if strings.Contains(l, "configuration:") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 || !strings.Contains(lines[0], "LLM_MODEL") || !strings.Contains(lines[0], "STATE_SECRET") {
			t.Fatalf("configuration log lines: %q", lines)
		}
	})
	t.Run("no ledger", func(t *testing.T) {
		hs := newHarness(t, nil)
		hs.h.opts.Spent = func() SpentStore { return nil }
		rec := hs.Do(http.MethodGet, "/readyz", "")
		body := decodeMap(t, rec)
		if rec.Code != http.StatusServiceUnavailable || body["status"] != "not_ready" || body["run"] != true || body["resume"] != false {
			t.Fatalf("readyz = %d %v", rec.Code, body)
		}
		if got := problemSettings(t, body["problems"]); !slices.Equal(got, []string{ApprovalsBinding}) {
			t.Fatalf("problems %v", got)
		}
		if code, run := hs.Post("/v1/run", map[string]any{"prompt": "add 2 and 3"}); code != http.StatusOK || run["status"] != "done" {
			t.Fatalf("a run without the ledger = %d %v", code, run)
		}
	})
	t.Run("readyz is open, like healthz", func(t *testing.T) {
		hs := newHarness(t, func(env map[string]string) { env["API_TOKEN"] = testAPIToken })
		if rec := hs.Do(http.MethodGet, "/readyz", ""); rec.Code != http.StatusOK {
			t.Fatalf("readyz = %d %s", rec.Code, rec.Body)
		}
	})
}
