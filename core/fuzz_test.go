package core

import (
	"context"
	"encoding/json"
	"testing"
)

// The fuzz targets feed untrusted bytes to every parser that reads them:
// SSE streams, tool arguments, Answers and halted transcripts (provider
// replies: core/wire's FuzzParse). None may panic (under js/wasm a panic ends the whole
// instance); each must answer with a value or an error. CI runs each for a
// few seconds (scripts/test.sh); seeds are below and in testdata/fuzz.

func FuzzStream(f *testing.F) {
	f.Add(openAIStreamToolTurn, true, 3)
	f.Add(anthropicStreamToolTurn, false, 1)
	f.Add("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":99999999}]}}]}\n\n", true, 7)
	f.Add("event: content_block_delta\ndata: {\"index\":-1}\n\n", false, 2)
	f.Add("data: [DONE]\r\n\r", true, 1)
	f.Add("data: {\"choices\":[{\"delta\":"+deepJSON(15_000)+"}]}\n\n", true, 3)
	f.Fuzz(func(t *testing.T, stream string, openai bool, split int) {
		style := StyleAnthropic
		if openai {
			style = StyleOpenAI
		}
		c := CreateClient(ClientOptions{Style: style, BaseURL: "https://x", MaxResponseBytes: 1 << 16})
		r := &run{c: c, stream: func(StreamEvent) {}}
		if split < 1 {
			split = 1
		}
		resp, err := r.readStream(&pieces{Data: []byte(stream), N: split%64 + 1})
		if err == nil && !json.Valid(c.wire.AssistantMessage(resp)) {
			t.Fatalf("stream produced an invalid message")
		}
	})
}

func FuzzToolArguments(f *testing.F) {
	for _, s := range []string{`{"order":"42"}`, ``, `[]`, `{"a":`, `null`, `{"a":{"b":[1,2,{"c":null}]}}`, "\xff", deepJSON(100_000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", args)}}, turn{Text: "ok"})
		var c counter
		res, err := m.client(ClientOptions{}).Run(context.Background(), "go", mustToolkit(t, c.tool("t")))
		if err != nil || res.Status != StatusDone {
			t.Fatalf("bad arguments must be a tool error, not a failed run: %v %+v", err, res.Status)
		}
	})
}

func FuzzResume(f *testing.F) {
	f.Add(`[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"refund","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"[toolnexus:pending req_1] awaiting"}]`, `{"id":"req_1","ok":true}`)
	f.Add(`[{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"refund","input":{}}]}]`, `{"id":"req_1","ok":false,"reason":"no"}`)
	f.Add(`[{}]`, `{"id":1}`)
	f.Fuzz(func(t *testing.T, history, answer string) {
		var msgs []any
		if err := json.Unmarshal([]byte(history), &msgs); err != nil {
			return
		}
		var ans Answer
		if err := json.Unmarshal([]byte(answer), &ans); err != nil {
			return
		}
		for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
			var c counter
			m := newScripted(t, style, turn{Text: "a"}, turn{Text: "b"}, turn{Text: "c"})
			_, _ = m.client(ClientOptions{MaxTurns: 2}).RunWithAnswer(context.Background(), mustToolkit(t, RequireApproval(c.tool("refund"))), msgs, Request{ID: ans.ID}, ans)
			if !ans.Ok && c.count() > 0 {
				t.Fatal("a tool needing approval ran without an Ok answer")
			}
		}
	})
}
