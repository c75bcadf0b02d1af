package toolnexus

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestPortRunResultModel: RunResult.Model is the model the run asked for,
// as in the Go port, even when the provider names another one; that one is
// kept in ProviderModel.
func TestPortRunResultModel(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		t.Run(string(style), func(t *testing.T) {
			m := newScripted(t, style, turn{Text: "hello"})
			res, err := m.client(ClientOptions{Model: "asked-model"}).Run(context.Background(), "hi", mustToolkit(t))
			if err != nil {
				t.Fatal(err)
			}
			if res.Model != "asked-model" {
				t.Errorf("Model = %q, want the one sent, %q", res.Model, "asked-model")
			}
			if res.ProviderModel != "served-model" {
				t.Errorf("ProviderModel = %q, want the provider's, %q", res.ProviderModel, "served-model")
			}
		})
	}
}

// TestPortProviderErrorText: a non-2xx reply reads as in the Go port,
// "LLM <status>: <body>" with the body redacted and shortened to 200 bytes
// in the text (not in the Body field); 401 and 403 keep no body at all.
func TestPortProviderErrorText(t *testing.T) {
	long := `{"error":"` + strings.Repeat("x", 300) + `"}`
	tests := []struct {
		name     string
		status   int
		body     string
		wantText string
		wantBody string
	}{
		{"plain", 500, `{"error":"boom"}`, `LLM 500: {"error":"boom"}`, `{"error":"boom"}`},
		{"empty body", 502, "  \n", "LLM 502", ""},
		{"unauthorized", 401, `{"error":"key sk-abc is wrong"}`, "LLM 401", ""},
		{"forbidden", 403, `{"org_id":"o-1"}`, "LLM 403", ""},
		{"account ids", 429, `{"error":{"user_id":"u-7","org_id": 42,"message":"slow down"}}`,
			`LLM 429: {"error":{"user_id":"«redacted»","org_id": "«redacted»","message":"slow down"}}`,
			`{"error":{"user_id":"«redacted»","org_id": "«redacted»","message":"slow down"}}`},
		{"long body", 500, long, "LLM 500: " + long[:200] + "…", long},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newScripted(t, StyleOpenAI, turn{Status: tt.status, Raw: tt.body})
			_, err := m.client(ClientOptions{Retries: -1}).Run(context.Background(), "hi", mustToolkit(t))
			pe, ok := errors.AsType[*ProviderError](err)
			if !ok {
				t.Fatalf("err = %v (%T), want a *ProviderError", err, err)
			}
			if pe.Error() != tt.wantText {
				t.Errorf("text = %q\nwant   %q", pe.Error(), tt.wantText)
			}
			if pe.Body != tt.wantBody {
				t.Errorf("Body = %q\nwant   %q", pe.Body, tt.wantBody)
			}
		})
	}
}

// TestPortRedactProviderBody: the exported redaction, on JSON and on text
// that is not JSON.
func TestPortRedactProviderBody(t *testing.T) {
	tests := []struct {
		status     int
		body, want string
	}{
		{401, "anything", ""},
		{403, "anything", ""},
		{500, "  plain text  ", "plain text"},
		{400, `{"account_id":"a\"b","organization" : "acme"}`, `{"account_id":"«redacted»","organization" : "«redacted»"}`},
		{400, `{"user_id":null}`, `{"user_id":"«redacted»"}`},
		{400, `<p>"org_id": abc def</p>`, `<p>"org_id": "«redacted»" def</p>`},
		{400, `{"user_id_hint":"kept","user":"kept"}`, `{"user_id_hint":"kept","user":"kept"}`},
		{400, `{"user_id":}`, `{"user_id":}`},
		{400, `{"a":"\"","user_id":7`, `{"a":"\"","user_id":"«redacted»"`},
		{400, `"org_id":"unterminated`, `"org_id":"«redacted»"`},
	}
	for _, tt := range tests {
		if got := RedactProviderBody(tt.status, tt.body); got != tt.want {
			t.Errorf("RedactProviderBody(%d, %q) = %q, want %q", tt.status, tt.body, got, tt.want)
		}
	}
	if RedactedMarker != "«redacted»" {
		t.Errorf("RedactedMarker = %q", RedactedMarker)
	}
}

// TestPortStreamUsage: as in the Go port, "done" carries the run's total
// usage. Core's "usage" events stay one per model call (the JS bridge and the
// Worker stream them so), and they add up to that total.
func TestPortStreamUsage(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		t.Run(string(style), func(t *testing.T) {
			var c counter
			m := newScripted(t, style, turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}}, turn{Text: "ok"})
			ch, err := m.client(ClientOptions{}).Stream(context.Background(), "hi", mustToolkit(t, c.tool("t")))
			if err != nil {
				t.Fatal(err)
			}
			var calls int
			var sum Usage
			var done *StreamEvent
			for _, e := range collect(t, ch) {
				switch e.Type {
				case EventUsage:
					calls++
					sum.PromptTokens += e.Usage.PromptTokens
					sum.CompletionTokens += e.Usage.CompletionTokens
					sum.TotalTokens += e.Usage.TotalTokens
				case EventDone:
					done = &e
				}
			}
			if done == nil || done.Usage == nil || done.Result == nil {
				t.Fatalf("no done event with usage and result: %+v", done)
			}
			if *done.Usage != done.Result.Usage || done.Usage.TotalTokens == 0 {
				t.Errorf("done usage %+v, result usage %+v", *done.Usage, done.Result.Usage)
			}
			if calls != 2 || sum != *done.Usage {
				t.Errorf("%d usage events summing to %+v, want 2 summing to %+v", calls, sum, *done.Usage)
			}
		})
	}
}

// TestPortMetricsFamilies: Client.Metrics renders the Go port's six
// families under the port's names and types, each series with the port's
// label keys in the port's order — except toolnexus_tool_calls_total, which
// has no "pending" label (suspensions are not counted), and the llm status,
// which is the HTTP status rather than "ok"/"error" (see the README).
func TestPortMetricsFamilies(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}}, turn{Text: "ok"}, turn{Status: 400, Raw: "bad"})
	client := m.client(ClientOptions{Model: "m1", Retries: -1})
	tk := mustToolkit(t, c.tool("t"))
	if _, err := client.Run(context.Background(), "hi", tk); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Run(context.Background(), "again", tk); err == nil {
		t.Fatal("the 400 reply must fail the second run")
	}
	text := client.Metrics()
	families := []struct{ name, typ, series string }{
		{"toolnexus_llm_requests_total", "counter", `toolnexus_llm_requests_total{model="m1",status="200"} 2`},
		{"toolnexus_llm_tokens_total", "counter", `toolnexus_llm_tokens_total{type="prompt"} 6`},
		{"toolnexus_llm_request_duration_seconds", "histogram", `toolnexus_llm_request_duration_seconds_bucket{model="m1",le="+Inf"} 3`},
		{"toolnexus_tool_calls_total", "counter", `toolnexus_tool_calls_total{tool="t",source="native",is_error="false"} 1`},
		{"toolnexus_tool_duration_seconds", "histogram", `toolnexus_tool_duration_seconds_count{tool="t"} 1`},
		{"toolnexus_run_errors_total", "counter", `toolnexus_run_errors_total{model="m1"} 1`},
	}
	for _, f := range families {
		if !strings.Contains(text, "\n# TYPE "+f.name+" "+f.typ+"\n") && !strings.HasPrefix(text, "# TYPE "+f.name) {
			t.Errorf("no %s %s family in:\n%s", f.typ, f.name, text)
		}
		if !strings.Contains(text, "\n"+f.series+"\n") {
			t.Errorf("no series %s in:\n%s", f.series, text)
		}
	}
	if !strings.Contains(text, `toolnexus_llm_request_duration_seconds_bucket{model="m1",le="0.05"} `) {
		t.Errorf("the port's first bucket bound is missing:\n%s", text)
	}
}

// TestPortLLMMetricStatus: a model call's metric says "ok" or "error",
// as the port's does (core's says the HTTP status).
func TestPortLLMMetricStatus(t *testing.T) {
	var got []string
	m := newScripted(t, StyleOpenAI, turn{Text: "hi"})
	onMetric := func(e MetricEvent) {
		if e.Kind == "llm" {
			got = append(got, e.Status)
		}
	}
	if _, err := m.client(ClientOptions{OnMetric: onMetric}).Run(context.Background(), "x", mustToolkit(t)); err != nil {
		t.Fatal(err)
	}
	bad := newScripted(t, StyleOpenAI, turn{Status: 400, Raw: "no"})
	_, _ = bad.client(ClientOptions{OnMetric: onMetric, Retries: -1}).Run(context.Background(), "x", mustToolkit(t))
	if strings.Join(got, ",") != "ok,error" {
		t.Fatalf("llm statuses = %v, want ok,error", got)
	}
}
