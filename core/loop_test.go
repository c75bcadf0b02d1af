package core

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestRunPlainAnswer(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		t.Run(string(style), func(t *testing.T) {
			m := newScripted(t, style, turn{Text: "hello"})
			res, err := m.client(ClientOptions{SystemPrompt: "be brief"}).Run(context.Background(), "hi", mustToolkit(t))
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusDone || res.Text != "hello" || res.Turns != 1 || res.ProviderModel != "served-model" {
				t.Fatalf("result = %+v", res)
			}
			body := m.sent()[0].Body
			if body.Get("tools").Exists() {
				t.Error("an empty toolkit must not send tools")
			}
			if style == StyleAnthropic && body.Get("system").String() != "be brief" {
				t.Errorf("system not hoisted: %s", body.Raw)
			}
			if style == StyleOpenAI && body.Get("messages.0.role").String() != "system" {
				t.Errorf("system message missing: %s", body.Raw)
			}
			if len(res.Messages) != 2 {
				t.Fatalf("transcript has %d messages, want user+assistant (system excluded)", len(res.Messages))
			}
		})
	}
}

// TestToolLoopBothStyles runs a tool turn in each wire style and checks the
// wire details each provider requires.
func TestToolLoopBothStyles(t *testing.T) {
	tests := []struct {
		style    Style
		base     string
		wantURL  string
		wantAuth [2]string
	}{
		{StyleOpenAI, "https://api.test/v1/", "https://api.test/v1/chat/completions", [2]string{"authorization", "Bearer sk-test-1234"}},
		{StyleAnthropic, "https://api.test", "https://api.test/v1/messages", [2]string{"x-api-key", "sk-test-1234"}},
		{StyleAnthropic, "https://api.test/v1", "https://api.test/v1/messages", [2]string{"x-api-key", "sk-test-1234"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.style)+" "+tt.base, func(t *testing.T) {
			var c counter
			m := newScripted(t, tt.style,
				turn{Calls: []ToolRequest{call("c1", "lookup", `{"order":"7"}`)}},
				turn{Text: "order 7 is fine"})
			res, err := m.client(ClientOptions{BaseURL: tt.base, APIKey: "sk-test-1234", Model: "model-x"}).Run(context.Background(), "check order 7", mustToolkit(t, c.tool("lookup")))
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusDone || res.Text != "order 7 is fine" || c.count() != 1 {
				t.Fatalf("result = %+v, runs = %d", res, c.count())
			}
			if res.Usage.TotalTokens != 10 || res.Turns != 2 || res.ToolCallCount != 1 {
				t.Fatalf("usage %+v turns %d calls %d", res.Usage, res.Turns, res.ToolCallCount)
			}
			for i, req := range m.sent() {
				if req.URL != tt.wantURL {
					t.Errorf("request %d url = %s, want %s", i, req.URL, tt.wantURL)
				}
				if req.Header[tt.wantAuth[0]] != tt.wantAuth[1] {
					t.Errorf("request %d header %s = %q", i, tt.wantAuth[0], req.Header[tt.wantAuth[0]])
				}
				if req.Body.Get("model").String() != "model-x" {
					t.Errorf("request %d model = %s: the model id must be sent verbatim", i, req.Body.Get("model"))
				}
			}
			if tt.style == StyleAnthropic {
				h := m.sent()[0].Header
				if h["anthropic-version"] != "2023-06-01" || m.sent()[0].Body.Get("max_tokens").Int() != 4096 {
					t.Errorf("anthropic headers/body: %v %s", h, m.sent()[0].Body.Raw)
				}
				if m.sent()[0].Body.Get("tools.0.input_schema.type").String() != "object" {
					t.Errorf("anthropic tools: %s", m.sent()[0].Body.Get("tools").Raw)
				}
			} else if m.sent()[0].Body.Get("tools.0.function.name").String() != "lookup" {
				t.Errorf("openai tools: %s", m.sent()[0].Body.Get("tools").Raw)
			}
			if got := m.toolResults(2); len(got) != 1 || got[0] != "lookup ran for order 7" {
				t.Errorf("tool results sent = %q", got)
			}
			assertBalanced(t, res.Messages)
		})
	}
}

func TestAnthropicErrorResultsCarryIsError(t *testing.T) {
	m := newScripted(t, StyleAnthropic,
		turn{Calls: []ToolRequest{call("t1", "nope", `{}`), call("t2", "nope", `{}`)}},
		turn{Text: "ok"})
	if _, err := m.client(ClientOptions{}).Run(context.Background(), "x", mustToolkit(t)); err != nil {
		t.Fatal(err)
	}
	msgs := m.sent()[1].Body.Get("messages").Array()
	last := msgs[len(msgs)-1]
	if last.Get("role").String() != "user" || len(last.Get("content").Array()) != 2 {
		t.Fatalf("both results must share one user turn: %s", last.Raw)
	}
	for _, b := range last.Get("content").Array() {
		if !b.Get("is_error").Bool() || b.Get("type").String() != "tool_result" {
			t.Errorf("block %s", b.Raw)
		}
	}
}

// TestBadToolCallsAreResultsNotErrors: an unknown tool, invalid JSON
// arguments, a panicking tool and a tool returning an error all become error
// results the model reads, and the run goes on.
func TestBadToolCallsAreResultsNotErrors(t *testing.T) {
	panicky := Tool{Name: "boom", Execute: func(map[string]any, *ToolContext) (ToolResult, error) { panic("kaboom") }}
	failing := NativeTool("fail", "", nil, func(context.Context, map[string]any) (string, error) {
		return "", errors.New("disk on fire")
	})
	m := newScripted(t, StyleOpenAI,
		turn{Calls: []ToolRequest{
			call("a", "missing_tool", `{}`),
			call("b", "fail", `{not json`),
			call("c", "boom", `{}`),
			call("d", "fail", `{}`),
		}},
		turn{Text: "recovered"})
	res, err := m.client(ClientOptions{}).Run(context.Background(), "go", mustToolkit(t, panicky, failing))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusDone || res.Text != "recovered" {
		t.Fatalf("result = %+v", res)
	}
	got := m.toolResults(2)
	want := []string{`unknown tool "missing_tool"`, `invalid arguments for tool "fail"`, `tool "boom" panicked: kaboom`, "disk on fire"}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("result %d = %q, want it to mention %q", i, got[i], w)
		}
	}
	for _, rec := range res.ToolCalls {
		if !rec.IsError {
			t.Errorf("%s should be an error result", rec.Name)
		}
	}
}

func TestMaxTurnsIncomplete(t *testing.T) {
	var c counter
	loopTurn := turn{Calls: []ToolRequest{call("x", "t", `{"order":"1"}`)}}
	m := newScripted(t, StyleOpenAI, loopTurn, loopTurn, loopTurn)
	res, err := m.client(ClientOptions{MaxTurns: 3}).Run(context.Background(), "loop", mustToolkit(t, c.tool("t")))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusIncomplete || res.Limit != "maxTurns" || res.Turns != 3 || c.count() != 3 {
		t.Fatalf("result = %+v runs = %d", res, c.count())
	}
	assertBalanced(t, res.Messages)
}

func TestProviderFailuresAreClearErrors(t *testing.T) {
	tests := []struct {
		name string
		tr   turn
		want string
	}{
		{"malformed JSON", turn{Raw: `{"choices":[{"message":`}, "not valid JSON"},
		{"non-2xx with body", turn{Status: 503, Raw: `{"error":"overloaded"}`}, "LLM 503: {\"error\":\"overloaded\"}"},
		{"empty choices", turn{Raw: `{"choices":[]}`}, "no choices"},
		{"error object", turn{Raw: `{"error":{"message":"model not found"}}`}, "model not found"},
		{"key echoed back", turn{Status: 400, Raw: `{"error":"bad key sk-secret-abcdef"}`}, "bad key [redacted]"},
		{"auth reply dropped", turn{Status: 401, Raw: `{"error":"bad key sk-secret-abcdef"}`}, "LLM 401"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c counter
			m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}}, tt.tr)
			res, err := m.client(ClientOptions{APIKey: "sk-secret-abcdef", Retries: -1}).Run(context.Background(), "hi", mustToolkit(t, c.tool("t")))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "sk-secret-abcdef") {
				t.Fatal("the API key leaked into the error")
			}
			// Everything completed before the failure is kept.
			if res.Status != StatusIncomplete || len(res.Messages) != 3 || c.count() != 1 {
				t.Fatalf("partial result = %+v", res)
			}
			var pe *ProviderError
			if tt.tr.Status != 0 && (!errors.As(err, &pe) || pe.Status != tt.tr.Status) {
				t.Fatalf("want a *ProviderError with status %d, got %T", tt.tr.Status, err)
			}
		})
	}
}

func TestHooksShortCircuitAndRewrite(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI, turn{Text: "from the model"})
	hooks := &Hooks{
		// Turn 0 never reaches the provider: the hook answers with a tool call.
		BeforeLLM: func(ctx context.Context, lc *LLMCall) (*LLMResponse, error) {
			if lc.Turn == 0 {
				return &LLMResponse{ToolCalls: []ToolRequest{call("h1", "t", `{"order":"1"}`), call("h2", "t", `{"order":"2"}`)}}, nil
			}
			return nil, nil
		},
		AfterLLM: func(ctx context.Context, lc *LLMCall, resp *LLMResponse) error {
			if lc.Turn == 1 {
				resp.Text = strings.ToUpper(resp.Text)
			}
			return nil
		},
		BeforeTool: func(ctx context.Context, ev BeforeToolEvent) (*ToolOverride, error) {
			if ev.ID == "h2" {
				return &ToolOverride{Result: &ToolResult{Output: "blocked by policy", IsError: true}}, nil
			}
			return &ToolOverride{Args: map[string]any{"order": "rewritten"}}, nil
		},
		AfterTool: func(ctx context.Context, ev AfterToolEvent) (*ToolOverride, error) {
			res := ev.Result
			res.Output += " (audited)"
			return &ToolOverride{Result: &res}, nil
		},
	}
	res, err := m.client(ClientOptions{Hooks: hooks}).Run(context.Background(), "go", mustToolkit(t, c.tool("t")))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.sent()) != 1 || res.Turns != 2 {
		t.Fatalf("provider calls = %d, turns = %d", len(m.sent()), res.Turns)
	}
	if res.Text != "FROM THE MODEL" {
		t.Fatalf("AfterLLM rewrite lost: %q", res.Text)
	}
	if c.count() != 1 || c.Args[0]["order"] != "rewritten" {
		t.Fatalf("BeforeTool rewrite: runs %d args %v", c.count(), c.Args)
	}
	got := m.toolResults(1)
	if got[0] != "t ran for order rewritten (audited)" || got[1] != "blocked by policy (audited)" {
		t.Fatalf("tool results = %q", got)
	}
}

func TestHookErrorEndsRunWithTranscript(t *testing.T) {
	m := newScripted(t, StyleOpenAI)
	boom := errors.New("budget exhausted")
	res, err := m.client(ClientOptions{Hooks: &Hooks{BeforeLLM: func(context.Context, *LLMCall) (*LLMResponse, error) { return nil, boom }}}).
		Run(context.Background(), "hi", mustToolkit(t))
	if !errors.Is(err, boom) || len(res.Messages) != 1 {
		t.Fatalf("err = %v, messages = %d", err, len(res.Messages))
	}
}

func TestHistoryIsSentVerbatimAndNotReencoded(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Text: "again"})
	history := []any{
		map[string]any{"role": "user", "content": "first <b>"},
		[]byte(`{"role":"assistant","content":"first answer","extra":{"kept":  true}}`),
	}
	res, err := m.client(ClientOptions{}).RunWithHistory(context.Background(), "second", mustToolkit(t), history)
	if err != nil {
		t.Fatal(err)
	}
	msgs := m.sent()[0].Body.Get("messages").Array()
	if len(msgs) != 3 || msgs[0].Get("content").String() != "first <b>" || msgs[1].Raw != string(history[1].([]byte)) {
		t.Fatalf("messages sent = %s", m.sent()[0].Body.Get("messages").Raw)
	}
	if len(res.Messages) != 4 {
		t.Fatalf("result transcript has %d messages", len(res.Messages))
	}
	if _, err := m.client(ClientOptions{}).RunWithHistory(context.Background(), "x", mustToolkit(t), []any{"not an object"}); err == nil {
		t.Fatal("a history entry that is not an object must be refused")
	}
}

func TestUnknownStyleIsAnError(t *testing.T) {
	_, err := CreateClient(ClientOptions{Style: "gemini-ish"}).Run(context.Background(), "hi", nil)
	if err == nil || !strings.Contains(err.Error(), "unknown style") {
		t.Fatalf("err = %v", err)
	}
}

func TestToolTimeout(t *testing.T) {
	slow := Tool{Name: "slow", Execute: func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
		<-tctx.Ctx.Done()
		return ToolResult{Output: "late"}, nil
	}}
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("s", "slow", "")}}, turn{Text: "moved on"})
	res, err := m.client(ClientOptions{ToolTimeoutMs: 20}).Run(context.Background(), "go", mustToolkit(t, slow))
	if err != nil || res.Text != "moved on" {
		t.Fatalf("res %+v err %v", res, err)
	}
	if got := m.toolResults(2); !strings.Contains(got[0], "timed out after 20 ms") {
		t.Fatalf("result = %q", got)
	}
}
