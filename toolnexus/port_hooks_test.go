package toolnexus

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// Conformance with the Go port's hooks, metric events, error classifier
// and stream events.

// TestPortHooksSeeAndSteer: BeforeLLM sees decoded messages and tools
// and may swap the model for one call and the tools for the rest of the
// run; BeforeTool may rewrite arguments or stand in for the tool; AfterTool
// may replace a result; AfterLLM sees the decoded reply.
func TestPortHooksSeeAndSteer(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI,
		turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"1"}`), call("c2", "refund", `{"order":"2"}`)}},
		turn{Text: "done"})
	var mu sync.Mutex
	var seen []string
	note := func(s string) { mu.Lock(); seen = append(seen, s); mu.Unlock() }
	hooks := &Hooks{
		BeforeLLM: func(_ context.Context, ev BeforeLLMEvent) (*LLMOverride, error) {
			first, _ := ev.Messages[0].(map[string]any)
			note("llm " + first["role"].(string))
			if ev.Turn == 0 {
				tool, _ := ev.Tools[0].(map[string]any)
				fn, _ := tool["function"].(map[string]any)
				if len(ev.Tools) != 1 || fn["name"] != "refund" {
					t.Errorf("tools = %v", ev.Tools)
				}
				return &LLMOverride{Model: "routed-model"}, nil
			}
			return &LLMOverride{Tools: []any{}}, nil
		},
		AfterLLM: func(_ context.Context, ev AfterLLMEvent) error {
			if ev.Response["model"] != "served-model" {
				t.Errorf("AfterLLM response = %v", ev.Response)
			}
			note("after " + ev.Model)
			return nil
		},
		BeforeTool: func(_ context.Context, ev BeforeToolEvent) (*ToolOverride, error) {
			if ev.Args["order"] == "2" {
				return &ToolOverride{Result: &ToolResult{Output: "denied by policy", IsError: true}}, nil
			}
			return &ToolOverride{Args: map[string]any{"order": "10"}}, nil
		},
		AfterTool: func(_ context.Context, ev AfterToolEvent) (*ToolOverride, error) {
			return &ToolOverride{Result: &ToolResult{Output: "[checked] " + ev.Result.Output, IsError: ev.Result.IsError}}, nil
		},
	}
	res, err := m.client(ClientOptions{Hooks: hooks}).Run(context.Background(), "refund 1 and 2", mustToolkit(t, c.tool("refund")))
	if err != nil || res.Status != StatusDone || c.count() != 1 || c.Args[0]["order"] != "10" {
		t.Fatalf("res %+v err %v runs %d args %v", res, err, c.count(), c.Args)
	}
	sent := m.sent()
	if sent[0].Body.Get("model").String() != "routed-model" || sent[1].Body.Get("model").String() != "test-model" {
		t.Fatalf("models sent = %s, %s", sent[0].Body.Get("model"), sent[1].Body.Get("model"))
	}
	if sent[1].Body.Get("tools").Exists() {
		t.Fatalf("the override emptied the tools, but the request sent %s", sent[1].Body.Get("tools"))
	}
	got := m.toolResults(2)
	if got[0] != "[checked] refund ran for order 10" || got[1] != "[checked] denied by policy" {
		t.Fatalf("results = %q", got)
	}
	if strings.Join(seen, ",") != "llm user,after routed-model,llm user,after test-model" {
		t.Fatalf("hook order = %v", seen)
	}
}

// TestPortHookErrorEndsRun: an error from any of the port's hooks ends
// the run, a tool hook's included.
func TestPortHookErrorEndsRun(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name  string
		hooks *Hooks
	}{
		{"BeforeLLM", &Hooks{BeforeLLM: func(context.Context, BeforeLLMEvent) (*LLMOverride, error) { return nil, boom }}},
		{"AfterLLM", &Hooks{AfterLLM: func(context.Context, AfterLLMEvent) error { return boom }}},
		{"BeforeTool", &Hooks{BeforeTool: func(context.Context, BeforeToolEvent) (*ToolOverride, error) { return nil, boom }}},
		{"AfterTool", &Hooks{AfterTool: func(context.Context, AfterToolEvent) (*ToolOverride, error) { return nil, boom }}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c counter
			m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}}, turn{Text: "unreached"})
			res, err := m.client(ClientOptions{Hooks: tc.hooks}).Run(context.Background(), "go", mustToolkit(t, c.tool("t")))
			if !errors.Is(err, boom) || res.Status != StatusIncomplete || len(m.sent()) > 1 {
				t.Fatalf("res %+v err %v model calls %d", res, err, len(m.sent()))
			}
		})
	}
}

// TestPortMetricEventPortFields: OnMetric events carry the port's
// field names.
func TestPortMetricEventPortFields(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}}, turn{Text: "done"})
	var mu sync.Mutex
	var runs, llms []MetricEvent
	onMetric := func(e MetricEvent) {
		mu.Lock()
		defer mu.Unlock()
		switch e.Event {
		case "run":
			runs = append(runs, e)
		case "llm":
			llms = append(llms, e)
		}
	}
	if _, err := m.client(ClientOptions{OnMetric: onMetric}).Run(context.Background(), "go", mustToolkit(t, c.tool("t"))); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Turns != 2 || runs[0].ToolCalls != 1 || runs[0].TotalTokens != 10 || runs[0].Error != "" || runs[0].Ms < 0 {
		t.Fatalf("run events = %+v", runs)
	}
	if len(llms) != 2 || llms[0].PromptTokens != 3 || llms[0].CompletionTokens != 2 {
		t.Fatalf("llm events = %+v", llms)
	}
}

// TestPortOnErrorTiers: OnError gets the port's ErrorInfo (a status, no
// error, the attempt from 0) and its Tier decides.
func TestPortOnErrorTiers(t *testing.T) {
	ok := turn{Text: "fine"}
	var infos []ErrorInfo
	onError := func(info ErrorInfo) Tier {
		infos = append(infos, info)
		if info.Status == 400 {
			return TierRetry
		}
		return TierFail
	}
	m := newScripted(t, StyleOpenAI, turn{Status: 400, Raw: "flaky"}, turn{Status: 503, Raw: "down"}, ok)
	_, err := m.client(ClientOptions{RetryBaseMs: 1, OnError: onError}).Run(context.Background(), "go", mustToolkit(t))
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.Status != 503 || len(m.sent()) != 2 {
		t.Fatalf("err %v calls %d", err, len(m.sent()))
	}
	if len(infos) != 2 || infos[0] != (ErrorInfo{Status: 400, Attempt: 0, Retryable: false}) || infos[1] != (ErrorInfo{Status: 503, Attempt: 1, Retryable: true}) {
		t.Fatalf("infos = %+v", infos)
	}
	m = newScripted(t, StyleOpenAI, turn{Status: 529, Raw: "overloaded"}, turn{Status: 520, Raw: "cf"}, ok)
	if res, err := m.client(ClientOptions{RetryBaseMs: 1, RetryableStatuses: []int{520}}).Run(context.Background(), "go", mustToolkit(t)); err != nil || res.Text != "fine" {
		t.Fatalf("529 and a listed 520 must be retried: res %+v err %v", res, err)
	}
}

// TestPortStreamEventArgs: a tool_call event carries the arguments as a
// map (the port's Args) and as JSON text (ArgsJSON, the event's JSON).
func TestPortStreamEventArgs(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", `{"order":"7"}`)}}, turn{Text: "done"})
	events, err := m.client(ClientOptions{}).Stream(context.Background(), "go", mustToolkit(t, c.tool("t")))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for e := range events {
		if e.Type == EventToolCall {
			found = true
			if e.Args["order"] != "7" || e.ArgsJSON != `{"order":"7"}` {
				t.Fatalf("tool_call event = %+v", e)
			}
			if b, _ := marshalJSON(e); !strings.Contains(string(b), `"args":"{\"order\":\"7\"}"`) {
				t.Fatalf("event JSON = %s", b)
			}
		}
	}
	if !found {
		t.Fatal("no tool_call event")
	}
}

// TestPortToolFormats: the package-level converters return the port's
// struct values, Gemini's wrapped in one functionDeclarations tool.
func TestPortToolFormats(t *testing.T) {
	tools := []Tool{{Name: "a", Description: "first", InputSchema: JSONSchema{"type": "object"}}, {Name: "b", InputSchema: JSONSchema{}}}
	tests := []struct {
		name string
		got  []any
		want string
	}{
		{"openai", ToOpenAI(tools), `[{"type":"function","function":{"name":"a","description":"first","parameters":{"type":"object"}}},{"type":"function","function":{"name":"b","description":"","parameters":{}}}]`},
		{"anthropic", ToAnthropic(tools), `[{"name":"a","description":"first","input_schema":{"type":"object"}},{"name":"b","description":"","input_schema":{}}]`},
		{"gemini", ToGemini(tools), `[{"functionDeclarations":[{"name":"a","description":"first","parameters":{"type":"object"}},{"name":"b","description":"","parameters":{}}]}]`},
		{"gemini none", ToGemini(nil), `[]`},
	}
	for _, tc := range tests {
		if b, err := marshalJSON(tc.got); err != nil || string(b) != tc.want {
			t.Errorf("%s = %s (err %v), want %s", tc.name, b, err, tc.want)
		}
	}
}

// TestPortDoneUsageAndRetryAfter: the done event carries the run's total
// usage, and a provider error keeps its Retry-After.
func TestPortDoneUsageAndRetryAfter(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Text: "hi"})
	events, err := m.client(ClientOptions{}).Stream(context.Background(), "x", mustToolkit(t))
	if err != nil {
		t.Fatal(err)
	}
	var done StreamEvent
	for e := range events {
		if e.Type == EventDone {
			done = e
		}
	}
	if done.Usage == nil || done.Usage.TotalTokens != 5 || done.Result.Usage != *done.Usage {
		t.Fatalf("done = %+v", done)
	}
	m = newScripted(t, StyleOpenAI, turn{Status: 429, Raw: "slow down", Header: map[string]string{"retry-after": "7"}})
	_, err = m.client(ClientOptions{Retries: -1}).Run(context.Background(), "x", mustToolkit(t))
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.Status != 429 || pe.RetryAfter != "7" {
		t.Fatalf("err = %v (%+v)", err, pe)
	}
}
