package gateway

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// TestGatewayServesOnlyTheListedModels: the gateway calls the provider with
// the Worker's key, so a caller may pick only a model the Worker lists
// (MODELS, else LLM_MODEL alone); anything else is 400 with the list, and
// nothing reaches the provider (issue 33).
func TestGatewayServesOnlyTheListedModels(t *testing.T) {
	hi := []any{map[string]any{"role": "user", "content": "hello"}}
	tests := []struct {
		name   string
		models string // MODELS; "" leaves it unset
		listed []string
		asks   []string // models a request may name ("" names none)
		refuse []string
	}{
		{"default: LLM_MODEL alone", "", []string{"mock-model"}, []string{"", "mock-model"}, []string{"gpt-4o", "claude-sonnet-4-5", "Mock-Model"}},
		{"MODELS", " mock-model , mock-large,", []string{"mock-model", "mock-large"}, []string{"", "mock-model", "mock-large"}, []string{"gpt-4o", "mock"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, func(env map[string]string) {
				if tt.models != "" {
					env["MODELS"] = tt.models
				}
			})
			rec := hs.Do(http.MethodGet, "/v1/models", "")
			var list struct {
				Data []struct{ ID string } `json:"data"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &list); rec.Code != http.StatusOK || err != nil {
				t.Fatalf("/v1/models: %d %s", rec.Code, rec.Body)
			}
			var ids []string
			for _, m := range list.Data {
				ids = append(ids, m.ID)
			}
			if !reflect.DeepEqual(ids, tt.listed) {
				t.Fatalf("/v1/models lists %v, want %v", ids, tt.listed)
			}
			for _, m := range tt.asks {
				sent := len(hs.LLM.Requests())
				code, body := hs.Post("/v1/chat/completions", map[string]any{"model": m, "messages": hi})
				if code != http.StatusOK {
					t.Fatalf("model %q: %d %v", m, code, body)
				}
				want := m
				if want == "" {
					want = "mock-model"
				}
				if got := hs.LLM.Requests()[sent]; !strings.Contains(got, `"model":"`+want+`"`) {
					t.Fatalf("model %q: the provider got %s", m, got)
				}
			}
			for _, m := range tt.refuse {
				sent := len(hs.LLM.Requests())
				for _, stream := range []bool{false, true} {
					code, body := hs.Post("/v1/chat/completions", map[string]any{"model": m, "messages": hi, "stream": stream})
					if code != http.StatusBadRequest || workertest.ErrCode(body) != "unknown_model" {
						t.Fatalf("model %q (stream %v): %d %v", m, stream, code, body)
					}
					msg, _ := body["error"].(map[string]any)["message"].(string)
					for _, l := range tt.listed {
						if !strings.Contains(msg, l) {
							t.Fatalf("model %q: the message does not name %q: %s", m, l, msg)
						}
					}
					if got, _ := json.Marshal(body["models"]); string(got) != mustJSON(t, tt.listed) {
						t.Fatalf("model %q: models = %s, want %v", m, got, tt.listed)
					}
				}
				if n := len(hs.LLM.Requests()); n != sent {
					t.Fatalf("model %q reached the provider", m)
				}
			}
		})
	}
}

// TestModelsMustListTheDefault: a MODELS without LLM_MODEL (what a request
// naming no model gets) is a configuration error, before anything runs.
func TestModelsMustListTheDefault(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["MODELS"] = "mock-large" })
	code, body := hs.Post("/v1/chat/completions", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi"}}})
	if code != http.StatusInternalServerError || workertest.ErrCode(body) != "config" || !strings.Contains(body["error"].(map[string]any)["message"].(string), "MODELS") {
		t.Fatalf("%d %v", code, body)
	}
	if n := len(hs.LLM.Requests()); n != 0 {
		t.Fatalf("%d requests reached the provider", n)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
