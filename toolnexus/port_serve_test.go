//go:build !js

package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
)

// countingModel answers every prompt with "you said: <prompt>" and counts
// its calls; its prompt "approve" calls the tool "refund" (which needs
// approval), "login" calls "signin" (which asks for a sign-in).
type countingModel struct{ calls atomic.Int32 }

func (m *countingModel) client() *Client {
	return CreateGenerateClient(func(_ context.Context, req core.GenerateRequest) (core.GenerateResponse, error) {
		m.calls.Add(1)
		last := req.Messages[len(req.Messages)-1]
		user, _ := last["content"].(string)
		switch {
		case last["role"] == "tool":
			return core.GenerateResponse{Text: "tool said: " + user}, nil
		case user == "approve":
			return core.GenerateResponse{ToolCalls: []core.ToolRequest{{ID: "c1", Name: "refund", Arguments: `{"order":"42"}`}}}, nil
		case user == "login":
			return core.GenerateResponse{ToolCalls: []core.ToolRequest{{ID: "c1", Name: "signin", Arguments: `{}`}}}, nil
		}
		return core.GenerateResponse{Text: "you said: " + user + " (" + itoa(len(req.Messages)) + " messages)"}, nil
	}, ClientOptions{Model: "local"})
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// servedToolkit has a data skill, a tool that needs approval and one that
// asks for a sign-in.
func servedToolkit(t *testing.T) *Toolkit {
	t.Helper()
	refund := RequireApproval(NativeTool("refund", "Refund an order", nil, func(context.Context, map[string]any) (string, error) { return "refunded", nil }))
	signin := Tool{Name: "signin", Description: "needs a login", InputSchema: JSONSchema{"type": "object"},
		Execute: func(map[string]any, *ToolContext) (ToolResult, error) {
			return AuthRequired("https://login.example/", "Sign in to the shop"), nil
		}}
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, ExtraTools: []Tool{refund, signin},
		Skills: []SkillDef{{Name: "refunds", Description: "Refund orders", Content: "Refund when asked."}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tk.Close() })
	return tk
}

func serve(t *testing.T, tk *Toolkit, opts ServeOptions) *ServeHandle {
	t.Helper()
	h, err := tk.Serve("127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Stop() })
	return h
}

func postRPC(t *testing.T, url, body string) map[string]any {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("reply to %.60s is not JSON: %v", body, err)
	}
	return out
}

// waitTask polls GetTask until the task leaves submitted/working.
func waitTask(t *testing.T, url, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		got := postRPC(t, url, `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"`+id+`"}}`)
		task, _ := got["result"].(map[string]any)
		if state := task["status"].(map[string]any)["state"]; state != "submitted" && state != "working" {
			return task
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("task %s never ended", id)
	return nil
}

// Serve's A2A profile is what our own A2A client (AgentTools, core/a2a)
// calls: the card lists the skills, a task runs the client's loop, and its
// text comes back as the tool's output.
func TestPortServeRoundTripWithOurOwnClient(t *testing.T) {
	var m countingModel
	h := serve(t, servedToolkit(t), ServeOptions{Client: m.client(), A2A: &A2AConfig{Name: "shop desk", Description: "d"}})
	tools, err := AgentTools(context.Background(), Agent{Card: h.URL + "/.well-known/agent-card.json", PollEvery: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "shop_desk_refunds" || tools[0].Description != "Refund orders" || tools[0].Source != SourceA2A {
		t.Fatalf("tools %+v", tools)
	}
	res, _ := tools[0].Execute(map[string]any{"task": "hello"}, &ToolContext{Ctx: context.Background()})
	if res.IsError || res.Output != "you said: hello (2 messages)" || res.Metadata["state"] != "completed" {
		t.Fatalf("%+v", res)
	}
}

// A message's contextId is a conversation (Client.Ask): its turns are
// remembered, and another contextId starts afresh. (The skills' prompt is
// the first message of each.)
func TestPortServeRemembersTheContext(t *testing.T) {
	var m countingModel
	h := serve(t, servedToolkit(t), ServeOptions{Client: m.client(), A2A: &A2AConfig{}})
	send := func(text, ctxID string) string {
		got := postRPC(t, h.URL+"/", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"user","contextId":"`+ctxID+`","parts":[{"kind":"text","text":"`+text+`"}]}}}`)
		task := waitTask(t, h.URL+"/", got["result"].(map[string]any)["id"].(string))
		if task["contextId"] != ctxID {
			t.Fatalf("contextId %v", task["contextId"])
		}
		return task["artifacts"].([]any)[0].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"].(string)
	}
	if got := send("one", "a"); got != "you said: one (2 messages)" {
		t.Fatal(got)
	}
	if got := send("two", "a"); got != "you said: two (4 messages)" {
		t.Fatal(got)
	}
	if got := send("three", "b"); got != "you said: three (2 messages)" {
		t.Fatal(got)
	}
}

// A run that halts for a person is input-required (an approval) or
// auth-required (a sign-in), with the request's prompt; OnTask hears it.
func TestPortServeHaltedRunsWaitForInput(t *testing.T) {
	var m countingModel
	var mu sync.Mutex
	var events []OnTaskEvent
	h := serve(t, servedToolkit(t), ServeOptions{Client: m.client(), A2A: &A2AConfig{},
		OnTask: func(ev OnTaskEvent) { mu.Lock(); events = append(events, ev); mu.Unlock(); panic("a host's bug") }})
	for prompt, want := range map[string][2]string{"approve": {"input-required", "refund"}, "login": {"auth-required", "Sign in to the shop"}} {
		got := postRPC(t, h.URL+"/", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"kind":"text","text":"`+prompt+`"}]}}}`)
		task := waitTask(t, h.URL+"/", got["result"].(map[string]any)["id"].(string))
		st := task["status"].(map[string]any)
		text := st["message"].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"].(string)
		if st["state"] != want[0] || !strings.Contains(text, want[1]) || task["artifacts"] != nil {
			t.Fatalf("%s: %v", prompt, task)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || events[0].Result == nil || events[0].Result.Pending == nil {
		t.Fatalf("OnTask heard %+v", events)
	}
	if resp, err := http.Get(h.URL + "/.well-known/agent-card.json"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the server must survive a panicking OnTask: %v", err)
	}
}

// countingTaskStore counts what Serve writes.
type countingTaskStore struct {
	InMemoryTaskStore
	saves atomic.Int32
}

func (s *countingTaskStore) Save(task A2ATask) error {
	s.saves.Add(1)
	return s.InMemoryTaskStore.Save(task)
}

// Every bad request is a JSON-RPC error with its code, and nothing runs:
// no task is stored and the model is never called.
func TestPortServeBadInputRunsNothing(t *testing.T) {
	var m countingModel
	store := &countingTaskStore{}
	h := serve(t, servedToolkit(t), ServeOptions{Client: m.client(), A2A: &A2AConfig{Store: store}})
	deep := strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40)
	tests := []struct {
		name, body string
		code       float64
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method":"SendMessage"`, -32700},
		{"not JSON-RPC 2.0", `{"id":1,"method":"SendMessage","params":{"message":{"parts":[{"kind":"text","text":"x"}]}}}`, -32600},
		{"an array", `[{"jsonrpc":"2.0","id":1,"method":"SendMessage"}]`, -32600},
		{"no method", `{"jsonrpc":"2.0","id":1}`, -32600},
		{"too deep", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"kind":"data","data":` + deep + `}]}}}`, -32600},
		{"too large", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"kind":"text","text":"` + strings.Repeat("x", 1<<20) + `"}]}}}`, -32600},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"tasks/delete","params":{}}`, -32601},
		{"params not an object", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":"hi"}`, -32602},
		{"no message", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}`, -32602},
		{"GetTask without an id", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{}}`, -32602},
		{"unknown task", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"nope"}}`, -32001},
	}
	for _, tt := range tests {
		got := postRPC(t, h.URL+"/", tt.body)
		e, _ := got["error"].(map[string]any)
		if e == nil || e["code"] != tt.code || got["result"] != nil || got["jsonrpc"] != "2.0" {
			t.Errorf("%s: %v", tt.name, got)
		}
	}
	if m.calls.Load() != 0 || store.saves.Load() != 0 {
		t.Fatalf("bad input ran something: %d model calls, %d saves", m.calls.Load(), store.saves.Load())
	}
	// The id of the request comes back, whatever its type.
	if got := postRPC(t, h.URL+"/", `{"jsonrpc":"2.0","id":"abc","method":"nope"}`); got["id"] != "abc" {
		t.Fatalf("%v", got)
	}
}

// The card: the skills (never the raw tools), the defaults, the provider
// only when set.
func TestPortServeCard(t *testing.T) {
	var m countingModel
	h := serve(t, servedToolkit(t), ServeOptions{Client: m.client(), A2A: &A2AConfig{}})
	resp, err := http.Get(h.URL + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"name":"toolnexus-agent","description":"","version":"0.1.0","protocolVersion":"0.3.0","capabilities":{"streaming":false,"pushNotifications":false},"defaultInputModes":["text"],"defaultOutputModes":["text"],"skills":[{"id":"refunds","name":"refunds","description":"Refund orders"}],"url":"` + h.URL + `/"}`
	if got := strings.TrimSpace(string(b)); got != want {
		t.Fatalf("card\n got %s\nwant %s", got, want)
	}
	card := BuildAgentCard(&A2AConfig{Skills: []string{}, Provider: &A2AProvider{Organization: "acme"}}, nil, "u")
	if len(card.Skills) != 0 || card.Provider.Organization != "acme" {
		t.Fatalf("%+v", card)
	}
}

// The MCP profile is this repository's MCP server: our own MCP client
// (an MCP config pointing at /mcp) lists and calls the tools it exposes,
// and OnCall hears each call.
func TestPortServeMCPProfile(t *testing.T) {
	echo := NativeTool("echo", "echo", nil, func(_ context.Context, args map[string]any) (string, error) {
		return "echo " + args["text"].(string), nil
	})
	secret := NativeTool("secret", "not exposed", nil, func(context.Context, map[string]any) (string, error) { return "x", nil })
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, ExtraTools: []Tool{echo, secret},
		McpConfig: map[string]any{"mcpServer": map[string]any{"name": "gw", "tools": []any{"echo", "missing"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	var mu sync.Mutex
	var calls []OnCallEvent
	h := serve(t, tk, ServeOptions{OnCall: func(ev OnCallEvent) { mu.Lock(); calls = append(calls, ev); mu.Unlock() }})
	client, err := CreateToolkit(context.Background(), Options{Builtins: false, McpConfig: map[string]any{"mcpServers": map[string]any{"up": map[string]any{"url": h.URL + "/mcp"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if st := client.MCPServers()["up"]; st.Status != "connected" || st.Tools != 1 {
		t.Fatalf("%+v", st)
	}
	res, _ := client.Execute(context.Background(), "up_echo", map[string]any{"text": "hi"})
	if res.IsError || res.Output != "echo hi" {
		t.Fatalf("%+v", res)
	}
	mu.Lock()
	if len(calls) != 1 || calls[0].Name != "echo" || calls[0].Source != SourceNative || calls[0].IsError {
		t.Fatalf("OnCall heard %+v", calls)
	}
	mu.Unlock()
	// No A2A profile: the card is 404, GET /mcp is 405.
	for path, want := range map[string]int{"/.well-known/agent-card.json": 404, "/mcp": 405} {
		if resp, err := http.Get(h.URL + path); err != nil || resp.StatusCode != want {
			t.Fatalf("GET %s: %v %v", path, resp, err)
		}
	}
	if names := ExposedMcpTools(tk.Tools(), &MCPServeConfig{Tools: []string{"secret"}}); len(names) != 1 || names[0].Name != "secret" {
		t.Fatalf("%+v", names)
	}
}

func TestPortServeNeedsAClientAndAStore(t *testing.T) {
	tk := servedToolkit(t)
	if _, err := tk.Serve("127.0.0.1:0", ServeOptions{A2A: &A2AConfig{}}); err == nil || !strings.Contains(err.Error(), "ServeOptions.Client") {
		t.Fatalf("no client: %v", err)
	}
	var m countingModel
	if _, err := tk.Serve("127.0.0.1:0", ServeOptions{Client: m.client(), A2A: &A2AConfig{Store: "redis:x"}}); err == nil || !strings.Contains(err.Error(), "unknown A2A store") {
		t.Fatalf("bad store: %v", err)
	}
	h := serve(t, tk, ServeOptions{})
	if resp, err := http.Post(h.URL+"/", "application/json", bytes.NewReader([]byte(`{}`))); err != nil || resp.StatusCode != 404 {
		t.Fatalf("no profile: %v %v", resp, err)
	}
}

// The file store keeps one file per task, its name made safe whatever the
// id, and finds nothing for an id it never saved.
func TestPortFileTaskStore(t *testing.T) {
	dir := t.TempDir()
	store, err := ResolveStore("file:" + dir)
	if err != nil {
		t.Fatal(err)
	}
	text := "hi"
	if err := store.Save(A2ATask{ID: "../../escape", Status: A2ATaskStatus{State: "completed"}, Artifacts: []A2AArtifact{{Parts: []A2APart{{Kind: "text", Text: &text}}}}}); err != nil {
		t.Fatal(err)
	}
	got, err := store.Get("../../escape")
	if err != nil || got == nil || *got.Artifacts[0].Parts[0].Text != "hi" {
		t.Fatalf("%+v %v", got, err)
	}
	if got, err := store.Get("nope"); got != nil || err != nil {
		t.Fatalf("%+v %v", got, err)
	}
}

// Our A2A client answering a served task that waits for input is refused
// with a JSON-RPC error (this server starts a new task per message), and
// the tool says so rather than reading an unrelated task's text.
func TestPortServeRefusesToContinueATask(t *testing.T) {
	var m countingModel
	h := serve(t, servedToolkit(t), ServeOptions{Client: m.client(), A2A: &A2AConfig{}})
	tools, err := AgentTools(context.Background(), Agent{Card: h.URL + "/.well-known/agent-card.json", PollEvery: 5})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := tools[0].Execute(map[string]any{"task": "approve"}, &ToolContext{Ctx: context.Background()})
	req := PendingOf(first)
	if req == nil || !strings.Contains(req.Prompt, "refund") {
		t.Fatalf("%+v", first)
	}
	calls := m.calls.Load()
	res, _ := tools[0].Execute(map[string]any{"task": "approve"}, &ToolContext{Ctx: context.Background(), Answer: &Answer{ID: req.ID, Ok: true}})
	if !res.IsError || !strings.Contains(res.Output, "does not continue a task") || m.calls.Load() != calls {
		t.Fatalf("%+v (model calls %d → %d)", res, calls, m.calls.Load())
	}
}
