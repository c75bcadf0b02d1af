package workertest

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

	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// Harness is one test Worker on the scripted model: its environment (the
// model's settings and the secrets above), its captured logs and the
// handler a package's test builds on them. No answer, header or log line
// may contain a secret.
type Harness struct {
	T   *testing.T
	LLM *ScriptedLLM
	Env map[string]string
	// Handler serves Do and Post; the test sets it (with Getenv, Transport
	// and Logf as its options).
	Handler httpx.Handler

	mu   sync.Mutex
	logs []string
	now  atomic.Int64 // the clock (Now), unix seconds
}

// NewHarness starts the scripted model and sets the environment; edit
// changes it first.
func NewHarness(t *testing.T, edit func(env map[string]string)) *Harness {
	t.Helper()
	hs := &Harness{T: t, LLM: NewScriptedLLM(t)}
	hs.now.Store(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).Unix())
	hs.Env = map[string]string{
		"LLM_BASE_URL": hs.LLM.URL() + "/v1",
		"LLM_MODEL":    "mock-model",
		"LLM_API_KEY":  APIKey,
		"STATE_SECRET": Secret,
		"LLM_RETRIES":  "0",
	}
	if edit != nil {
		edit(hs.Env)
	}
	t.Cleanup(hs.checkLogs)
	return hs
}

// Now is the harness clock (the Worker's Options.Now, and its stores'):
// 2026-05-01 12:00 UTC until Advance moves it.
func (hs *Harness) Now() time.Time { return time.Unix(hs.now.Load(), 0) }

// Advance moves the clock by d (whole seconds).
func (hs *Harness) Advance(d time.Duration) { hs.now.Add(int64(d / time.Second)) }

// Getenv reads the environment (the Worker's Options.Getenv).
func (hs *Harness) Getenv(k string) string { return hs.Env[k] }

// Logf records one log line (the Worker's Options.Logf).
func (hs *Harness) Logf(format string, args ...any) {
	hs.mu.Lock()
	hs.logs = append(hs.logs, fmt.Sprintf(format, args...))
	hs.mu.Unlock()
}

// Logs returns the lines logged so far.
func (hs *Harness) Logs() []string {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return append([]string(nil), hs.logs...)
}

// Do serves one request; headers are name, value pairs (a POST says
// Content-Type: application/json unless they set another or ""). It fails
// the test when a secret shows up in the response.
func (hs *Harness) Do(method, path, body string, headers ...string) *httptest.ResponseRecorder {
	hs.T.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" || method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	nethttp.Handler(hs.Handler).ServeHTTP(rec, req)
	hs.NoSecrets("response to "+method+" "+path, rec.Body.String()+fmt.Sprint(rec.Header()))
	return rec
}

// Post sends v as JSON and decodes the JSON reply into a map.
func (hs *Harness) Post(path string, v any, headers ...string) (int, map[string]any) {
	hs.T.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		hs.T.Fatal(err)
	}
	rec := hs.Do(http.MethodPost, path, string(b), headers...)
	return rec.Code, DecodeMap(hs.T, rec)
}

// NoSecrets fails the test when s, found at where, contains a secret.
func (hs *Harness) NoSecrets(where, s string) {
	hs.T.Helper()
	for _, secret := range []string{APIKey, Secret, APIToken} {
		if strings.Contains(s, secret) {
			hs.T.Errorf("%s contains a secret: %q", where, s)
		}
	}
}

func (hs *Harness) checkLogs() {
	hs.NoSecrets("log", strings.Join(hs.Logs(), "\n"))
}
