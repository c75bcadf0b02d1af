package core

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func raws(ss ...string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = json.RawMessage(s)
	}
	return out
}

func TestTranslateToAnthropic(t *testing.T) {
	m := newScripted(t, StyleAnthropic, turn{Text: "it is sunny", Calls: []ToolRequest{call("tu_9", "weather", `{"city":"Oslo"}`)}})
	client := m.client(ClientOptions{Model: "claude-x"})
	req := TranslateRequest{
		Messages: raws(
			`{"role":"system","content":"be brief"}`,
			`{"role":"user","content":[{"type":"text","text":"weather?"}]}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}},{"id":"c2","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Rome\"}"}}]}`,
			`{"role":"tool","tool_call_id":"c1","content":"sun"}`,
			`{"role":"tool","tool_call_id":"c2","content":"rain"}`,
			`{"role":"user","content":"and now?"}`,
		),
		Tools: raws(`{"type":"function","function":{"name":"weather","description":"get weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}`),
	}
	res, err := client.Translate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "it is sunny" || len(res.ToolCalls) != 1 || res.ToolCalls[0].Arguments != `{"city":"Oslo"}` || res.Model != "served-model" {
		t.Fatalf("res = %+v", res)
	}
	body := m.sent()[0].Body
	if body.Get("system").String() != "be brief" || body.Get("model").String() != "claude-x" {
		t.Fatalf("body = %s", body.Raw)
	}
	msgs := body.Get("messages").Array()
	if len(msgs) != 3 {
		t.Fatalf("want user, assistant, user (results merged with the next prompt), got %s", body.Get("messages").Raw)
	}
	if msgs[1].Get("content.1.type").String() != "tool_use" || msgs[1].Get("content.1.input.city").String() != "Rome" {
		t.Fatalf("assistant = %s", msgs[1].Raw)
	}
	last := msgs[2].Get("content").Array()
	if len(last) != 3 || last[0].Get("tool_use_id").String() != "c1" || last[1].Get("content").String() != "rain" || last[2].Get("text").String() != "and now?" {
		t.Fatalf("last user turn = %s", msgs[2].Raw)
	}
	if body.Get("tools.0.input_schema.properties.city.type").String() != "string" {
		t.Fatalf("tools = %s", body.Get("tools").Raw)
	}
}

func TestTranslateOpenAIIsVerbatim(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Text: "hi"})
	msgs := raws(`{"role":"user","content":"hi","name":"ada"}`)
	res, err := m.client(ClientOptions{}).Translate(context.Background(), TranslateRequest{Messages: msgs, Model: "other"})
	if err != nil || res.Text != "hi" || res.ToolCalls == nil {
		t.Fatalf("res %+v err %v", res, err)
	}
	if got := m.sent()[0].Body.Get("messages.0").Raw; got != string(msgs[0].(json.RawMessage)) || m.sent()[0].Body.Get("model").String() != "other" {
		t.Fatalf("sent %s", m.sent()[0].Body.Raw)
	}
	if _, err := m.client(ClientOptions{}).Translate(context.Background(), TranslateRequest{}); err == nil {
		t.Fatal("no messages must be an error")
	}
}

func TestInProcessClient(t *testing.T) {
	var c counter
	calls := 0
	gen := func(ctx context.Context, req GenerateRequest) (GenerateResponse, error) {
		calls++
		if calls == 1 {
			if req.Model != "local" || len(req.Tools) != 1 || req.Messages[0]["content"] != "refund 5" {
				t.Errorf("request = %+v", req)
			}
			return GenerateResponse{ToolCalls: []ToolRequest{{Name: "refund", Arguments: `{"order":"5"}`}}, Usage: Usage{PromptTokens: 4, CompletionTokens: 1}}, nil
		}
		last := req.Messages[len(req.Messages)-1]
		return GenerateResponse{Text: "tool said: " + last["content"].(string)}, nil
	}
	client := CreateGenerateClient(gen, ClientOptions{Model: "local"})
	res, err := client.Run(context.Background(), "refund 5", mustToolkit(t, c.tool("refund")))
	if err != nil || res.Text != "tool said: refund ran for order 5" || res.Usage.TotalTokens != 5 {
		t.Fatalf("res %+v err %v", res, err)
	}
	failing := CreateGenerateClient(func(context.Context, GenerateRequest) (GenerateResponse, error) {
		calls++
		return GenerateResponse{}, errors.New("model crashed")
	}, ClientOptions{})
	before := calls
	_, err = failing.Run(context.Background(), "x", mustToolkit(t))
	if err == nil || !strings.Contains(err.Error(), "model crashed") || calls != before+1 {
		t.Fatalf("err = %v, calls %d: in-process failures are final", err, calls-before)
	}
}
