//go:build !js

package toolnexus

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// portAgent is a remote agent in the Go port's dialect (a card with "url",
// "kind" parts, lower-case states, a bare Task as SendMessage's result):
// "ask" waits for input, a reply completes it; anything else completes
// after one poll. It records each request's Authorization and methods.
type portAgent struct {
	srv     *httptest.Server
	mu      sync.Mutex
	auth    []string
	methods []string
	replies []string
}

func newPortAgent(t *testing.T) *portAgent {
	a := &portAgent{}
	states := map[string]string{}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "application/json")
		if r.Method == http.MethodGet {
			_ = json.NewEncoder(w).Encode(map[string]any{"name": "reviewer", "url": a.srv.URL + "/",
				"skills": []any{map[string]any{"id": "review", "description": "Review code"}, map[string]any{"name": "plan"}}})
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
		a.mu.Lock()
		defer a.mu.Unlock()
		a.auth = append(a.auth, r.Header.Get("Authorization"))
		a.methods = append(a.methods, rpc.Method)
		task := func(id, state, text string) map[string]any {
			t := map[string]any{"id": id, "status": map[string]any{"state": state}}
			if state == "input-required" {
				t["status"].(map[string]any)["message"] = map[string]any{"role": "agent", "parts": []any{map[string]any{"kind": "text", "text": "Merge it?"}}}
			}
			if state == "completed" {
				t["artifacts"] = []any{map[string]any{"parts": []any{map[string]any{"kind": "text", "text": text}}}}
			}
			return t
		}
		result := map[string]any{}
		switch rpc.Method {
		case "SendMessage":
			text := rpc.Params.Message.Parts[0].Text
			if id := rpc.Params.Message.TaskID; id != "" {
				a.replies = append(a.replies, text)
				states[id] = "completed"
				result = task(id, "completed", "merged after: "+text)
				break
			}
			id := "t" + itoa(len(states)+1)
			states[id] = "working"
			if text == "ask" {
				states[id] = "input-required"
			}
			result = task(id, "submitted", "")
		case "GetTask":
			id := rpc.Params.ID
			if states[id] == "working" {
				states[id] = "completed"
			}
			result = task(id, states[id], "REVIEWED")
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": rpc.ID, "result": result})
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *portAgent) card() string { return a.srv.URL + "/.well-known/agent-card.json" }

// Options.Agents and the "agents" block: each skill a tool named after the
// card, ${ENV} filled in the headers, the port's metadata on the result.
func TestPortA2AAgentsBecomeTools(t *testing.T) {
	a := newPortAgent(t)
	t.Setenv("TN_TEST_A2A_TOKEN", "tok")
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false,
		Agents:    []Agent{{Card: a.card(), PollEvery: 2, Headers: map[string]string{"Authorization": "Bearer ${TN_TEST_A2A_TOKEN}"}}},
		McpConfig: map[string]any{"agents": map[string]any{"off": map[string]any{"card": a.card(), "disabled": true}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if got := toolNames(tk); got != "reviewer_review,reviewer_plan" {
		t.Fatalf("tools %s", got)
	}
	if len(tk.MCPServers()) != 0 {
		t.Fatalf("the agents block was read as an MCP server: %v", tk.MCPServers())
	}
	res, _ := tk.Execute(context.Background(), "reviewer_review", map[string]any{"task": "look"})
	if res.IsError || res.Output != "REVIEWED" || res.Metadata["agent"] != "reviewer" || res.Metadata["state"] != "completed" || res.Metadata["polls"] != 1 {
		t.Fatalf("%+v", res)
	}
	for _, h := range a.auth {
		if h != "Bearer tok" {
			t.Fatalf("Authorization %q", h)
		}
	}
	// An unset variable is an error, never an empty token: the agent is
	// left out of the toolkit (and logged).
	tk2, err := CreateToolkit(context.Background(), Options{Builtins: false,
		Agents: []Agent{{Card: a.card(), Headers: map[string]string{"Authorization": "Bearer ${TN_TEST_UNSET_TOKEN}"}}}})
	if err != nil || len(tk2.Tools()) != 0 {
		t.Fatalf("%v %s", err, toolNames(tk2))
	}
	// AddAgent adds them at run time; a second add keeps the first tools.
	tk3 := mustToolkit(t)
	if _, err := tk3.AddAgent(context.Background(), a.card(), &Agent{PollEvery: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := tk3.AddAgent(context.Background(), Agent{Card: a.card()}, nil); err != nil || toolNames(tk3) != "reviewer_review,reviewer_plan" {
		t.Fatalf("%v %s", err, toolNames(tk3))
	}
	if _, err := tk3.AddAgent(context.Background(), 42, nil); err == nil {
		t.Fatal("AddAgent(42) must fail")
	}
}

// A remote task that waits for input is the run's WaitFor request, and the
// answer continues it — through the Go port's client.
func TestPortA2AInputRequiredReachesWaitFor(t *testing.T) {
	a := newPortAgent(t)
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, Agents: []Agent{{Card: a.card(), PollEvery: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "reviewer_review", `{"task":"ask"}`)}}, turn{Text: "ok"})
	var asked []Request
	res, err := m.client(ClientOptions{WaitFor: func(r Request) (Answer, error) {
		asked = append(asked, r)
		return Answer{ID: r.ID, Ok: true, Data: map[string]any{"reply": "yes, merge"}}, nil
	}}).Run(context.Background(), "review", tk)
	if err != nil || res.Status != StatusDone {
		t.Fatalf("%+v %v", res, err)
	}
	if len(asked) != 1 || asked[0].Kind != KindInput || !strings.Contains(asked[0].Prompt, "Merge it?") {
		t.Fatalf("asked %+v", asked)
	}
	if got := m.toolResults(2); len(got) != 1 || got[0] != "merged after: yes, merge" {
		t.Fatalf("the model read %q", got)
	}
}
