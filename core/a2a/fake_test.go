package a2a_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/toolnexus/wasm/core/tool"
)

// fakeAgent is an A2A agent in the test's process, reached through a
// Transport that calls its handler (no network, so the tests run under
// js/wasm too). It speaks A2A 1.0's JSON (v1: true) or the Go port's
// ("kind" parts, lower-case states, a bare Task as the result). What a task
// does follows its first message's text:
//
//	"slow …"       working for two polls, then completed
//	"fail …"       failed, saying "boom"
//	"reject …"     rejected
//	"message …"    answered at once with a Message
//	"ask …"        input-required ("Refund order 42?"); a reply completes it
//	"ask twice …"  input-required again after the reply
//	"login …"      auth-required, naming https://auth.example/login
//	"hang …"       working until cancelled
//	anything else  completed, with the artifact "done: <text>"
type fakeAgent struct {
	v1       bool
	cardURL  string // the card's "url" (port dialect); "" for v1's supportedInterfaces
	endpoint string // where v1's supportedInterfaces point
	status   int    // non-zero: every JSON-RPC reply has this HTTP status

	mu      sync.Mutex
	tasks   map[string]*fakeTask
	n       int
	methods []string
	headers []http.Header
	bodies  []string
}

type fakeTask struct {
	id, mode, state, status string
	polls                   int
	replies                 []string
	replyData               []map[string]any
}

const fakeOrigin = "http://agent.test"

func newFakeAgent(v1 bool) *fakeAgent {
	return &fakeAgent{v1: v1, tasks: map[string]*fakeTask{}, endpoint: fakeOrigin + "/rpc"}
}

// transport reaches the agent's handler in process.
func (a *fakeAgent) transport() tool.Transport {
	return tool.TransportFunc(func(ctx context.Context, req *tool.HTTPRequest) (*tool.HTTPResponse, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := httptest.NewRequest(req.Method, req.URL, strings.NewReader(string(req.Body)))
		for k, v := range req.Header {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		a.ServeHTTP(w, r)
		h := map[string]string{}
		for k, v := range w.Header() {
			h[strings.ToLower(k)] = strings.Join(v, ", ")
		}
		return &tool.HTTPResponse{Status: w.Code, Header: h, Body: io.NopCloser(strings.NewReader(w.Body.String()))}, nil
	})
}

func (a *fakeAgent) card() map[string]any {
	c := map[string]any{
		"name": "billing desk", "description": "refunds and invoices", "version": "1.0.0",
		"skills": []any{
			map[string]any{"id": "refund", "name": "Refund", "description": "Refund an order"},
			map[string]any{"id": "invoice", "name": "Invoice"},
		},
	}
	if a.v1 {
		c["supportedInterfaces"] = []any{map[string]any{"url": a.endpoint, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}}
	} else {
		c["url"] = a.cardURL
	}
	return c
}

func (a *fakeAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("content-type", "application/json")
	if r.Method == http.MethodGet && r.URL.Path == "/.well-known/agent-card.json" {
		_ = json.NewEncoder(w).Encode(a.card())
		return
	}
	body, _ := io.ReadAll(r.Body)
	var rpc struct {
		ID     any            `json:"id"`
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
	}
	_ = json.Unmarshal(body, &rpc)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.methods = append(a.methods, rpc.Method)
	a.headers = append(a.headers, r.Header.Clone())
	a.bodies = append(a.bodies, string(body))
	if a.status != 0 {
		w.WriteHeader(a.status)
		_, _ = w.Write([]byte(`{"error":"upstream trouble"}`))
		return
	}
	reply := func(result any) {
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": rpc.ID, "result": result})
	}
	fail := func(code int, msg string) {
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": rpc.ID, "error": map[string]any{"code": code, "message": msg}})
	}
	switch rpc.Method {
	case "SendMessage":
		msg, _ := rpc.Params["message"].(map[string]any)
		text, data := fakeParts(msg)
		if id, _ := msg["taskId"].(string); id != "" {
			t := a.tasks[id]
			if t == nil {
				fail(-32001, "Task not found: "+id)
				return
			}
			t.replies = append(t.replies, text)
			t.replyData = append(t.replyData, data)
			if t.mode == "ask twice" && len(t.replies) == 2 {
				t.status = "And the shipping too?"
			} else {
				t.state, t.status = "completed", ""
			}
			reply(a.wrap(a.taskJSON(t)))
			return
		}
		a.n++
		t := &fakeTask{id: "task-" + string(rune('0'+a.n)), state: "submitted"}
		for _, mode := range []string{"ask twice", "slow", "fail", "reject", "message", "ask", "login", "hang"} {
			if strings.HasPrefix(text, mode) {
				t.mode = mode
				break
			}
		}
		switch t.mode {
		case "message":
			m := a.agentMessage("hi from the desk")
			if a.v1 {
				reply(map[string]any{"message": m})
			} else {
				reply(m)
			}
			return
		case "fail":
			t.state, t.status = "failed", "boom"
		case "reject":
			t.state, t.status = "rejected", "not my job"
		case "ask", "ask twice":
			t.state, t.status = "input-required", "Refund order 42?"
		case "login":
			t.state, t.status = "auth-required", "Sign in at https://auth.example/login, then come back."
		case "slow", "hang":
			t.state = "working"
		default:
			t.state = "completed"
		}
		t.replies = []string{text}
		a.tasks[t.id] = t
		reply(a.wrap(a.taskJSON(t)))
	case "GetTask":
		id, _ := rpc.Params["id"].(string)
		t := a.tasks[id]
		if t == nil {
			fail(-32001, "Task not found: "+id)
			return
		}
		t.polls++
		if t.mode == "slow" && t.polls >= 2 {
			t.state = "completed"
		}
		reply(a.taskJSON(t))
	case "CancelTask":
		id, _ := rpc.Params["id"].(string)
		t := a.tasks[id]
		if t == nil {
			fail(-32001, "Task not found: "+id)
			return
		}
		t.state, t.status = "canceled", ""
		reply(a.taskJSON(t))
	default:
		fail(-32601, "Method not found")
	}
}

// wrap is SendMessage's result: {"task": …} in 1.0, the Task itself in the
// port's dialect.
func (a *fakeAgent) wrap(task map[string]any) any {
	if a.v1 {
		return map[string]any{"task": task}
	}
	return task
}

func (a *fakeAgent) part(text string) map[string]any {
	if a.v1 {
		return map[string]any{"text": text}
	}
	return map[string]any{"kind": "text", "text": text}
}

func (a *fakeAgent) agentMessage(text string) map[string]any {
	role := "agent"
	if a.v1 {
		role = "ROLE_AGENT"
	}
	return map[string]any{"messageId": "m1", "role": role, "parts": []any{a.part(text)}}
}

func (a *fakeAgent) taskJSON(t *fakeTask) map[string]any {
	state := t.state
	if a.v1 {
		state = "TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(state, "-", "_"))
	}
	status := map[string]any{"state": state}
	if t.status != "" {
		status["message"] = a.agentMessage(t.status)
	}
	out := map[string]any{"id": t.id, "contextId": "ctx-1", "status": status}
	if t.state == "completed" {
		out["artifacts"] = []any{map[string]any{"artifactId": "a1", "parts": []any{a.part("done: " + strings.Join(t.replies, " | "))}}}
	}
	return out
}

// fakeParts reads a message's text (its text parts, joined) and its data part.
func fakeParts(msg map[string]any) (string, map[string]any) {
	parts, _ := msg["parts"].([]any)
	var texts []string
	var data map[string]any
	for _, p := range parts {
		m, _ := p.(map[string]any)
		if s, ok := m["text"].(string); ok {
			texts = append(texts, s)
		}
		if d, ok := m["data"].(map[string]any); ok {
			data = d
		}
	}
	return strings.Join(texts, ""), data
}

func (a *fakeAgent) calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.methods...)
}

func (a *fakeAgent) task(id string) fakeTask {
	a.mu.Lock()
	defer a.mu.Unlock()
	return *a.tasks[id]
}

func nopBody(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }
