package toolnexus

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Conformance with the Go port's in-process client and BodyTransform
//.

// TestPortInProcessClient: Generate sees decoded messages, tools and the
// body; its tool calls (arguments of any shape) drive the loop.
func TestPortInProcessClient(t *testing.T) {
	var c counter
	var seen []InProcessRequest
	gen := func(req InProcessRequest) (InProcessResponse, error) {
		seen = append(seen, req)
		if len(seen) == 1 {
			return InProcessResponse{ToolCalls: []InProcessToolCall{
				{Name: "t", Arguments: map[string]any{"order": "1"}},
				{ID: "given", Name: "t", Arguments: `{"order":"2"}`},
			}, Usage: &InProcessUsage{PromptTokens: 4, CompletionTokens: 1}}, nil
		}
		return InProcessResponse{Content: "both done"}, nil
	}
	res, err := CreateInProcessClient(InProcessOptions{Model: "local", Generate: gen, SystemPrompt: "sys"}).
		Run(context.Background(), "go", mustToolkit(t, c.tool("t")))
	if err != nil || res.Text != "both done" || c.count() != 2 || res.Usage.TotalTokens != 5 {
		t.Fatalf("res %+v err %v runs %d", res, err, c.count())
	}
	first := seen[0]
	if first.Model != "local" || len(first.Tools) != 1 || first.Body["model"] != "local" {
		t.Fatalf("request = %+v", first)
	}
	if m, _ := first.Messages[0].(map[string]any); m["role"] != "system" || m["content"] != "sys" {
		t.Fatalf("messages = %v", first.Messages)
	}
	if res.ToolCalls[1].ID != "given" {
		t.Fatalf("records = %+v", res.ToolCalls)
	}
}

// TestPortInProcessFailuresAreFinal: without OnError a failing Generate
// is not retried; with one, it is classified like an HTTP failure. A
// missing Generate is an error, not a panic.
func TestPortInProcessFailuresAreFinal(t *testing.T) {
	calls := 0
	gen := func(InProcessRequest) (InProcessResponse, error) {
		calls++
		return InProcessResponse{}, errors.New("gpu oom")
	}
	_, err := CreateInProcessClient(InProcessOptions{Generate: gen}).Run(context.Background(), "go", nil)
	if err == nil || !strings.Contains(err.Error(), "gpu oom") || calls != 1 {
		t.Fatalf("err %v calls %d", err, calls)
	}
	calls = 0
	retry := func(ErrorInfo) Tier { return TierRetry }
	c := CreateInProcessClient(InProcessOptions{Generate: gen, OnError: retry})
	if _, err := c.Run(context.Background(), "go", nil); err == nil || calls != 3 {
		t.Fatalf("with OnError: err %v calls %d", err, calls)
	}
	if _, err := CreateInProcessClient(InProcessOptions{}).Run(context.Background(), "go", nil); !errors.Is(err, errNoGenerate) {
		t.Fatalf("no Generate: %v", err)
	}
}

// TestPortBodyTransformMap: BodyTransform sees the decoded body and its
// returned map is what is sent; nil keeps the body.
func TestPortBodyTransformMap(t *testing.T) {
	for _, replace := range []bool{true, false} {
		m := newScripted(t, StyleOpenAI, turn{Text: "ok"})
		transform := func(body map[string]any) map[string]any {
			if body["model"] != "test-model" {
				t.Errorf("body = %v", body)
			}
			if !replace {
				return nil
			}
			body["temperature"] = 0.5
			return body
		}
		if _, err := m.client(ClientOptions{BodyTransform: transform}).Run(context.Background(), "x", mustToolkit(t)); err != nil {
			t.Fatal(err)
		}
		if got := m.sent()[0].Body.Get("temperature").Raw; (got == "0.5") != replace {
			t.Fatalf("replace=%v: temperature = %q", replace, got)
		}
	}
}

// TestPortInProcessRefusesStreaming: an in-process model returns whole
// replies, so a stream is refused with an error, before any text delta.
func TestPortInProcessRefusesStreaming(t *testing.T) {
	c := CreateInProcessClient(InProcessOptions{Model: "m", Generate: func(InProcessRequest) (InProcessResponse, error) {
		return InProcessResponse{Content: "x"}, nil
	}})
	ch, err := c.Stream(context.Background(), "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	for ev := range ch {
		if ev.Type == EventText {
			t.Fatal("a text delta before the refusal")
		}
		if ev.Err != nil && strings.Contains(ev.Err.Error(), "does not support streaming") {
			return
		}
	}
	t.Fatal("the stream was not refused")
}
