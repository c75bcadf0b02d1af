package worker

import (
	"regexp"
	"strings"
	"testing"
)

// TestOneLogLinePerRequest: a request logs one line, which carries its
// run's outcome (on Workers each line is a console.log, as dear as a small
// request's own work; issue 35).
func TestOneLogLinePerRequest(t *testing.T) {
	hs := newHarness(t, nil)
	if code, body := hs.Post("/v1/run", map[string]any{"prompt": "add 2 and 3"}); code != 200 {
		t.Fatalf("POST /v1/run = %d %v", code, body)
	}
	hs.Do("GET", "/healthz", "")
	logs := hs.Logs()
	want := []*regexp.Regexp{
		regexp.MustCompile(`^worker: POST run 200 \d+m?s status=done turns=2 toolCalls=1$`),
		regexp.MustCompile(`^worker: GET healthz 200 \d+m?s$`),
	}
	if len(logs) != len(want) {
		t.Fatalf("logged %d lines, want %d:\n%s", len(logs), len(want), strings.Join(logs, "\n"))
	}
	for i, re := range want {
		if !re.MatchString(logs[i]) {
			t.Errorf("line %d = %q, want %s", i, logs[i], re)
		}
	}
}
