package core

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/internal/jsonx"
)

func TestMetricsAndEvents(t *testing.T) {
	var c counter
	var events []MetricEvent
	m := newScripted(t, StyleOpenAI,
		turn{Status: 503, Raw: "busy"},
		turn{Calls: []ToolRequest{call("a", "t", `{"order":"1"}`), call("b", "refund", `{"order":"2"}`)}},
	)
	client := m.client(ClientOptions{RetryBaseMs: 1, Model: "m1", OnMetric: func(e MetricEvent) { events = append(events, e) }})
	res, err := client.Run(context.Background(), "go", mustToolkit(t, c.tool("t"), RequireApproval(c.tool("refund"))))
	if err != nil || res.Status != StatusPending {
		t.Fatalf("res %+v err %v", res, err)
	}
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind+":"+e.Status)
		if e.Kind == "tool" && e.Tool == "refund" && !e.Pending {
			t.Errorf("a suspension must be reported as pending: %+v", e)
		}
	}
	if strings.Join(kinds, " ") != "llm:503 llm:200 tool: run:pending" {
		t.Fatalf("events = %v", kinds)
	}
	text := client.Metrics()
	for _, want := range []string{
		`toolnexus_llm_requests_total{model="m1",status="503"} 1`,
		`toolnexus_llm_requests_total{model="m1",status="200"} 1`,
		`toolnexus_llm_tokens_total{type="prompt"} 3`,
		`toolnexus_tool_calls_total{tool="t",source="native",is_error="false"} 1`,
		`toolnexus_llm_request_duration_seconds_bucket{model="m1",le="+Inf"} 2`,
		`toolnexus_llm_request_duration_seconds_count{model="m1"} 2`,
		"# TYPE toolnexus_tool_duration_seconds histogram",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, `tool="refund"`) {
		t.Errorf("a suspension must not count as a tool call:\n%s", text)
	}
	m2 := newScripted(t, StyleOpenAI, turn{Status: 400, Raw: "no"})
	client2 := m2.client(ClientOptions{Model: "m2"})
	_, _ = client2.Run(context.Background(), "x", mustToolkit(t))
	if !strings.Contains(client2.Metrics(), `toolnexus_run_errors_total{model="m2"} 1`) {
		t.Errorf("run errors not counted:\n%s", client2.Metrics())
	}
}

// TestMetricsRegistrySharedByClients: a server that makes a client per
// request feeds one registry through OnMetric and renders it once; the sums
// equal what each client counted, and each client's own Metrics stays its own.
func TestMetricsRegistrySharedByClients(t *testing.T) {
	reg := NewMetricsRegistry()
	var c counter
	for i := 0; i < 3; i++ {
		m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("a", "t", `{}`)}}, turn{Text: "done"})
		client := m.client(ClientOptions{Model: "m", OnMetric: reg.Record})
		if _, err := client.Run(context.Background(), "go", mustToolkit(t, c.tool("t"))); err != nil {
			t.Fatal(err)
		}
		if own := client.Metrics(); !strings.Contains(own, `toolnexus_llm_requests_total{model="m",status="200"} 2`+"\n") {
			t.Fatalf("client %d's own metrics:\n%s", i, own)
		}
	}
	text := reg.Text()
	for _, want := range []string{
		`toolnexus_llm_requests_total{model="m",status="200"} 6`,
		`toolnexus_tool_calls_total{tool="t",source="native",is_error="false"} 3`,
		`toolnexus_llm_request_duration_seconds_count{model="m"} 6`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("shared registry lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "# TYPE toolnexus_llm_requests_total counter"); n != 1 {
		t.Errorf("family header written %d times", n)
	}
}

func TestRequestParamsAndBodyTransform(t *testing.T) {
	m := newScripted(t, StyleAnthropic, turn{Text: "ok"})
	client := m.client(ClientOptions{
		RequestParams: map[string]any{"temperature": 0.2, "max_tokens": 50, "metadata": map[string]any{"user": "u1"}},
		BodyTransform: func(b []byte) ([]byte, error) {
			return []byte(strings.Replace(string(b), `"temperature":0.2`, `"temperature":0.3`, 1)), nil
		},
	})
	if _, err := client.Run(context.Background(), "hi", mustToolkit(t)); err != nil {
		t.Fatal(err)
	}
	body := m.sent()[0].Body
	if body.Get("temperature").Float() != 0.3 || body.Get("max_tokens").Int() != 50 || body.Get("metadata.user").String() != "u1" {
		t.Fatalf("body = %s", body.Raw)
	}
	if strings.Count(body.Raw, `"max_tokens"`) != 1 {
		t.Fatalf("max_tokens sent twice: %s", body.Raw)
	}
	for _, owned := range []string{"messages", "tools", "stream"} {
		_, err := CreateClient(ClientOptions{RequestParams: map[string]any{owned: true}}).Run(context.Background(), "x", nil)
		if err == nil || !strings.Contains(err.Error(), owned) {
			t.Errorf("RequestParams[%q] should be refused, got %v", owned, err)
		}
	}
	bad := newScripted(t, StyleOpenAI)
	_, err := bad.client(ClientOptions{BodyTransform: func([]byte) ([]byte, error) { return nil, errors.New("nope") }}).Run(context.Background(), "x", mustToolkit(t))
	if err == nil || !strings.Contains(err.Error(), "BodyTransform: nope") || len(bad.sent()) != 0 {
		t.Fatalf("err = %v", err)
	}
}

func TestAskKeepsConversations(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI,
		turn{Text: "hello Ada"},
		turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"3"}`)}},
		turn{Text: "refund declined"},
	)
	client := m.client(ClientOptions{})
	tk := mustToolkit(t, RequireApproval(c.tool("refund")))
	conv := client.Conversation(tk)
	if _, err := conv.Ask(context.Background(), "I am Ada"); err != nil {
		t.Fatal(err)
	}
	halted, err := conv.Ask(context.Background(), "refund order 3")
	if err != nil || halted.Status != StatusPending {
		t.Fatalf("halted %+v err %v", halted, err)
	}
	if n := len(m.sent()[1].Body.Get("messages").Array()); n != 3 {
		t.Fatalf("second ask sent %d messages, want the first exchange plus the new prompt", n)
	}
	done, err := conv.AskWithAnswer(context.Background(), *halted.Pending, AnswerDeclined(halted.Pending.ID, "no"))
	if err != nil || done.Text != "refund declined" {
		t.Fatalf("done %+v err %v", done, err)
	}
	stored, _ := conv.Stored()
	if len(stored) != 6 {
		t.Fatalf("stored %d messages, want 6", len(stored))
	}
	assertBalanced(t, stored)
	other := client.Conversation(tk)
	if other.ID == conv.ID {
		t.Fatal("conversations share an id")
	}
}

// TestRenderedLabelsKeepSeriesApart: label sets rendered once and reused
// still make one series per distinct value, escaped, also past the cache's
// bound.
func TestRenderedLabelsKeepSeriesApart(t *testing.T) {
	reg := NewMetricsRegistry()
	for range 2 {
		reg.Record(MetricEvent{Kind: "llm", Model: "m\"1", Status: "200"})
		reg.Record(MetricEvent{Kind: "llm", Model: "m2", Status: "200"})
		reg.Record(MetricEvent{Kind: "llm", Model: "m2", Status: "500"})
		reg.Record(MetricEvent{Kind: "tool", Tool: "t", Source: "custom", IsError: true})
	}
	for i := range 1024 + 10 { // past promtext's cache of rendered label sets
		reg.Record(MetricEvent{Kind: "tool", Tool: "x" + strconv.Itoa(i), Source: "custom"})
	}
	text := reg.Text()
	for _, want := range []string{
		`toolnexus_llm_requests_total{model="m\"1",status="200"} 2`,
		`toolnexus_llm_requests_total{model="m2",status="200"} 2`,
		`toolnexus_llm_requests_total{model="m2",status="500"} 2`,
		`toolnexus_llm_request_duration_seconds_count{model="m2"} 4`,
		`toolnexus_tool_calls_total{tool="t",source="custom",is_error="true"} 2`,
		`toolnexus_tool_calls_total{tool="x1033",source="custom",is_error="false"} 1`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
}

func TestRedactKey(t *testing.T) {
	key := "sk-proj-abcdef1234567890"
	tests := []struct{ in, want string }{
		{"bad key " + key + ".", "bad key [redacted]."},
		{`{"error":"Incorrect API key provided: sk-proj-***7890"}`, `{"error":"Incorrect API key provided: [redacted]"}`},
		{"nothing secret here", "nothing secret here"},
	}
	for _, tt := range tests {
		if got := redactKey(tt.in, key); got != tt.want {
			t.Errorf("redactKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := withoutQuery("https://x.test/v1/models?key=secret"); got != "https://x.test/v1/models?…" {
		t.Errorf("withoutQuery = %s", got)
	}
}

func TestTypedErrors(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Err: errors.New("connection reset by peer")})
	_, err := m.client(ClientOptions{Retries: -1}).Run(context.Background(), "x", mustToolkit(t))
	if !errors.Is(err, ErrTransport) {
		t.Fatalf("a transport failure must match ErrTransport: %v", err)
	}
	_, err = m.client(ClientOptions{}).RunWithAnswer(context.Background(), mustToolkit(t), nil, Request{ID: "a"}, Answer{ID: "b"})
	if !errors.Is(err, ErrCannotResume) {
		t.Fatalf("a refused answer must match ErrCannotResume: %v", err)
	}
	res, _ := newScripted(t, StyleOpenAI, turn{Text: "x"}).client(ClientOptions{}).Run(context.Background(), "x", mustToolkit(t))
	if b, _ := jsonx.Marshal(res); !strings.Contains(string(b), `"toolCalls":[]`) {
		t.Fatalf("toolCalls must encode as [] when no tool ran: %s", b)
	}
}
