package tool

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/internal/jsonx"
)

func TestRequestAnswerJSONRoundTrip(t *testing.T) {
	req := Request{ID: "r1", Kind: "approval", Prompt: "ok?", URL: "https://x", ExpiresAt: "2026-12-02T00:00:00Z", Data: map[string]any{"args": map[string]any{"n": 1.0}}}
	b, err := jsonx.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var back Request
	if err := back.UnmarshalJSON(b); err != nil || string(mustMarshal(t, back)) != string(b) {
		t.Fatalf("round trip: %s → %+v (%v)", b, back, err)
	}
	std, _ := json.Marshal(req)
	if string(std) != string(b) {
		t.Fatalf("encoding/json %s\ncore          %s", std, b)
	}
	ans := AnswerOutput("r1", map[string]any{"x": []any{1.0, "two", nil, true}})
	b, _ = jsonx.Marshal(ans)
	var a2 Answer
	if err := json.Unmarshal(b, &a2); err != nil || string(mustMarshal(t, a2)) != string(b) {
		t.Fatalf("answer round trip: %s → %+v (%v)", b, a2, err)
	}
}

func TestAnswerDecodingRejectsBadShapes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"id":1}`, `"answer.id" must be a string`},
		{`{"id":"a","ok":"yes"}`, `"answer.ok" must be true or false`},
		{`{"id":"a","data":[1]}`, `"answer.data" must be an object`},
		{`[1]`, "not a JSON object"},
		{`{"id":`, "invalid JSON"},
	}
	for _, tt := range tests {
		var a Answer
		if err := a.UnmarshalJSON([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.in, err, tt.want)
		}
	}
	var a Answer
	if err := a.UnmarshalJSON([]byte(`{"id":"a","ok":true,"extra":1,"reason":null}`)); err != nil || !a.Ok || a.ID != "a" {
		t.Fatalf("a valid answer with extra keys: %+v %v", a, err)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := jsonx.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
