package worker

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Issue 15: /v1/resume ran the edited arguments while the records showed
// the originals.
func TestResumeWithEditedArgsRecordsWhatRan(t *testing.T) {
	for _, style := range []string{"openai", "anthropic"} {
		t.Run(style, func(t *testing.T) {
			hs := newHarness(t, func(env map[string]string) {
				if style == "anthropic" {
					env["LLM_STYLE"] = "anthropic"
					env["LLM_BASE_URL"] = strings.TrimSuffix(env["LLM_BASE_URL"], "/v1")
				}
			})
			_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund order 42"})
			answer := map[string]any{"id": pendingID(run), "ok": true, "data": map[string]any{"args": map[string]any{"order": 999}}}
			code, res := hs.Post("/v1/resume", map[string]any{"state": run["state"], "answer": answer})
			if code != http.StatusOK || res["text"] != "done: refunded order 999" {
				t.Fatalf("resume = %d %v", code, res)
			}
			calls, _ := res["toolCalls"].([]any)
			rec, _ := calls[0].(map[string]any)
			if got, _ := json.Marshal(rec["args"]); string(got) != `{"order":999}` {
				t.Fatalf("toolCalls[0].args = %s", got)
			}
			if got, _ := json.Marshal(rec["originalArgs"]); string(got) != `{"order":42}` {
				t.Fatalf("toolCalls[0].originalArgs = %s", got)
			}
			msgs, _ := json.Marshal(res["messages"])
			m := strings.ReplaceAll(string(msgs), `\"`, `"`)
			if strings.Contains(m, `"order":42`) || !strings.Contains(m, `"order":999`) {
				t.Fatalf("the transcript does not say what ran: %s", msgs)
			}
		})
	}
}

// The streamed resume's tool_result event carries both too.
func TestStreamedResumeWithEditedArgs(t *testing.T) {
	hs := newHarness(t, nil)
	_, run := hs.Post("/v1/run", map[string]any{"prompt": "refund order 42"})
	answer := map[string]any{"id": pendingID(run), "ok": true, "data": map[string]any{"args": map[string]any{"order": 999}}}
	events := hs.stream("/v1/resume", map[string]any{"state": run["state"], "answer": answer, "stream": true})
	var result, done map[string]any
	for _, e := range events {
		switch e.name {
		case "tool_result":
			result = e.data
		case "done":
			done = e.data
		}
	}
	if result == nil || result["args"] != `{"order":999}` || result["originalArgs"] != `{"order":42}` || result["output"] != "refunded order 999" {
		t.Fatalf("tool_result event %v (events %s)", result, eventNames(events))
	}
	calls, _ := done["toolCalls"].([]any)
	if rec, _ := calls[0].(map[string]any); rec == nil || rec["originalArgs"] == nil {
		t.Fatalf("done event toolCalls %v", done["toolCalls"])
	}
}
