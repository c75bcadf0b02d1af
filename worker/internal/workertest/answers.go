package workertest

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// Secrets the tests configure; no response body, header or log line may
// contain any of them.
const (
	APIKey   = "sk-test-KEY-0123456789abcdef"
	Secret   = "state-secret-0123456789abcdef0123456789"
	APIToken = "api-token-xyz-987654321"
)

// DecodeMap decodes rec's body, a JSON object, or fails the test.
func DecodeMap(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("response is not a JSON object (%d): %q", rec.Code, rec.Body.String())
	}
	return out
}

// ErrCode returns body.error.code.
func ErrCode(body map[string]any) string {
	e, _ := body["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// PendingID returns body.pending.id.
func PendingID(body map[string]any) string {
	p, _ := body["pending"].(map[string]any)
	id, _ := p["id"].(string)
	return id
}

// TeamAgents is the AGENTS team of the team tests: support delegates to
// billing, whose refund needs approval.
const TeamAgents = `[
 {"name": "support", "does": "answers customers", "instructions": "You are support.", "team": ["billing"]},
 {"name": "billing", "does": "refunds orders", "instructions": "You are billing.", "tools": ["refund"], "budget": {"maxTurns": 4}}
]`
