//go:build !js

package worker

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// deskAgent is a remote A2A agent (A2A 1.0's JSON) with one skill, "talk":
// "ask" waits for input and a reply completes it; anything else completes
// at once. It records the bearer tokens and methods it receives.
type deskAgent struct {
	srv     *httptest.Server
	mu      sync.Mutex
	methods []string
	tokens  []string
}

func newDeskAgent(t *testing.T) *deskAgent {
	d := &deskAgent{}
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "application/json")
		if r.Method == http.MethodGet {
			_ = json.NewEncoder(w).Encode(map[string]any{"name": "desk", "skills": []any{map[string]any{"id": "talk", "description": "Talk to the desk"}},
				"supportedInterfaces": []any{map[string]any{"url": d.srv.URL + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}}})
			return
		}
		var rpc struct {
			ID     any `json:"id"`
			Method string
			Params struct {
				ID      string
				Message struct {
					TaskID string `json:"taskId"`
					Parts  []struct{ Text string }
				}
			}
		}
		_ = json.NewDecoder(r.Body).Decode(&rpc)
		d.mu.Lock()
		d.methods = append(d.methods, rpc.Method)
		d.tokens = append(d.tokens, r.Header.Get("Authorization"))
		d.mu.Unlock()
		task := func(state, text string) map[string]any {
			t := map[string]any{"id": "t1", "status": map[string]any{"state": state}}
			if state == "TASK_STATE_INPUT_REQUIRED" {
				t["status"].(map[string]any)["message"] = map[string]any{"role": "ROLE_AGENT", "parts": []any{map[string]any{"text": "Refund order 42?"}}}
			}
			if text != "" {
				t["artifacts"] = []any{map[string]any{"parts": []any{map[string]any{"text": text}}}}
			}
			return t
		}
		var result any
		switch {
		case rpc.Method == "CancelTask":
			result = task("TASK_STATE_CANCELED", "")
		case rpc.Params.Message.TaskID != "":
			result = map[string]any{"task": task("TASK_STATE_COMPLETED", "refunded after: "+rpc.Params.Message.Parts[0].Text)}
		case rpc.Params.Message.Parts[0].Text == "ask":
			result = map[string]any{"task": task("TASK_STATE_INPUT_REQUIRED", "")}
		default:
			result = map[string]any{"task": task("TASK_STATE_COMPLETED", "hello back")}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": rpc.ID, "result": result})
	}))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *deskAgent) config(extra string) string {
	return `{"desk": {"card": "` + d.srv.URL + `/.well-known/agent-card.json", "headers": {"authorization": "Bearer ${DESK_TOKEN}"}` + extra + `}}`
}

// A2A_AGENTS' skills are tools of every request; an agent's question halts
// the run like an approval, /v1/resume's answer continues the remote task,
// and a decline cancels it with the reason for the model.
func TestA2AAgentsHaltAndResume(t *testing.T) {
	d := newDeskAgent(t)
	hs := newHarness(t, func(env map[string]string) {
		env["A2A_AGENTS"] = d.config("")
		env["DESK_TOKEN"] = "desk-token"
	})
	rec := hs.Do(http.MethodGet, "/v1/tools", "")
	if !strings.Contains(rec.Body.String(), `"name":"desk_talk"`) || !strings.Contains(rec.Body.String(), `"source":"a2a"`) {
		t.Fatalf("tools %s", rec.Body)
	}
	code, run := hs.Post("/v1/run", map[string]any{"prompt": `call desk_talk {"task":"hi"}`})
	if code != 200 || run["text"] != "done: hello back" {
		t.Fatalf("%d %v", code, run)
	}
	code, run = hs.Post("/v1/run", map[string]any{"prompt": `call desk_talk {"task":"ask"}`})
	pending, _ := run["pending"].(map[string]any)
	if code != 200 || run["status"] != "pending" || pending["kind"] != "input" || !strings.Contains(pending["prompt"].(string), "Refund order 42?") {
		t.Fatalf("%d %v", code, run)
	}
	code, res := hs.Post("/v1/resume", map[string]any{"state": run["state"],
		"answer": map[string]any{"id": pendingID(run), "ok": true, "data": map[string]any{"reply": "yes"}}})
	if code != 200 || res["text"] != "done: refunded after: yes" {
		t.Fatalf("%d %v", code, res)
	}

	_, run = hs.Post("/v1/run", map[string]any{"prompt": `call desk_talk {"task":"ask"}`})
	code, res = hs.Post("/v1/resume", map[string]any{"state": run["state"],
		"answer": map[string]any{"id": pendingID(run), "ok": false, "reason": "not that order"}})
	if code != 200 || !strings.Contains(res["text"].(string), "declined: not that order") || !strings.Contains(res["text"].(string), "was cancelled") {
		t.Fatalf("%d %v", code, res)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.methods[len(d.methods)-1] != "CancelTask" {
		t.Fatalf("methods %v", d.methods)
	}
	for _, tok := range d.tokens {
		if tok != "Bearer desk-token" {
			t.Fatalf("token %q", tok)
		}
	}
}

// A bad A2A_AGENTS is a config error naming the setting; an agent whose
// variable is unset is left out and logged without any header value.
func TestA2AAgentsConfigErrors(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["A2A_AGENTS"] = `{"desk": {"card": "ftp://x"}}` })
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "hi"})
	if code != http.StatusInternalServerError || !strings.Contains(body["error"].(map[string]any)["message"].(string), "A2A_AGENTS") {
		t.Fatalf("%d %v", code, body)
	}
	if rec := hs.Do(http.MethodGet, "/readyz", ""); rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "A2A_AGENTS") {
		t.Fatalf("readyz %d %s", rec.Code, rec.Body)
	}

	d := newDeskAgent(t)
	hs = newHarness(t, func(env map[string]string) { env["A2A_AGENTS"] = d.config("") })
	rec := hs.Do(http.MethodGet, "/v1/tools", "")
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "desk_talk") {
		t.Fatalf("tools %d %s", rec.Code, rec.Body)
	}
	if logs := strings.Join(hs.Logs(), "\n"); !strings.Contains(logs, "a2a agent desk failed") || !strings.Contains(logs, "DESK_TOKEN is not set") {
		t.Fatalf("logs %s", logs)
	}
}
