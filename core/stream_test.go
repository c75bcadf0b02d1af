package core

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const openAIStreamToolTurn = "data: {\"model\":\"served\",\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"Let me \"}}]}\n\n" +
	"data: {\"choices\":[{\"delta\":{\"content\":\"check café\"}}]}\n\n" +
	": keep-alive\n\n" +
	"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"look\",\"arguments\":\"\"}}]}}]}\n\n" +
	"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"look\",\"arguments\":\"{\\\"order\\\"\"}}]}}]}\n\n" +
	"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"order\\\":\\\"1\\\"}\"}}]}}]}\n\n" +
	"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\":\\\"2\\\"}\"}}]}}]}\n\n" +
	"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" +
	"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":5,\"total_tokens\":12}}\n\n" +
	"data: [DONE]\n\n"

const openAIStreamText = "data: {\"choices\":[{\"delta\":{\"content\":\"all \"}}]}\r\n\r\n" +
	"data: {\"choices\":[{\"delta\":{\"content\":\"good\"},\"finish_reason\":\"stop\"}]}\r\n\r\n" +
	"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2,\"total_tokens\":3}}\r\n\r\n" +
	"data: [DONE]\r\n\r\n"

const anthropicStreamToolTurn = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"served\",\"usage\":{\"input_tokens\":7}}}\n\n" +
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
	"event: ping\ndata: {\"type\":\"ping\"}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me \"}}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"check café\"}}\n\n" +
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"c1\",\"name\":\"look\",\"input\":{}}}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"order\\\":\"}}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"1\\\"}\"}}\n\n" +
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n" +
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\",\"id\":\"c2\",\"name\":\"look\",\"input\":{}}}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"order\\\":\\\"2\\\"}\"}}\n\n" +
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}\n\n" +
	"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":5}}\n\n" +
	"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"

const anthropicStreamText = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"served\",\"usage\":{\"input_tokens\":1}}}\n\n" +
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"all good\"}}\n\n" +
	"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\n" +
	"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"

func collect(t *testing.T, ch <-chan StreamEvent) []StreamEvent {
	t.Helper()
	var events []StreamEvent
	for e := range ch {
		events = append(events, e)
	}
	return events
}

// errNoStreamResult is streamResult's error for a stream that ended without
// a final result.
var errNoStreamResult = errors.New("the stream ended without a result")

// streamResult drains a stream (as Stream* return it) and returns its final
// result and error.
func streamResult(events <-chan StreamEvent, err error) (RunResult, error) {
	if err != nil {
		return RunResult{}, err
	}
	var last StreamEvent
	for e := range events {
		last = e
	}
	if last.Result == nil {
		return RunResult{}, errNoStreamResult
	}
	return *last.Result, last.Err
}

func TestStreamBothStyles(t *testing.T) {
	tests := []struct {
		style      Style
		toolTurn   string
		textTurn   string
		wantStream string
	}{
		{StyleOpenAI, openAIStreamToolTurn, openAIStreamText, `"stream":true,"stream_options":{"include_usage":true}`},
		{StyleAnthropic, anthropicStreamToolTurn, anthropicStreamText, `"stream":true`},
	}
	for _, tt := range tests {
		for _, split := range []int{1, 3, 7, 1 << 20} {
			t.Run(string(tt.style)+"/split"+strconv.Itoa(split), func(t *testing.T) {
				var c counter
				m := newScripted(t, tt.style, turn{Raw: tt.toolTurn, Split: split}, turn{Raw: tt.textTurn, Split: split})
				ch, err := m.client(ClientOptions{}).Stream(context.Background(), "check", mustToolkit(t, c.tool("look")))
				if err != nil {
					t.Fatal(err)
				}
				events := collect(t, ch)
				var text strings.Builder
				var kinds []string
				for _, e := range events {
					if e.Type == EventText {
						text.WriteString(e.Delta)
						continue
					}
					kinds = append(kinds, e.Type)
				}
				if text.String() != "Let me check caféall good" {
					t.Fatalf("streamed text = %q", text.String())
				}
				// The turn's two calls run concurrently: their events
				// interleave in any order between the two usages.
				middle := append([]string(nil), kinds[1:len(kinds)-2]...)
				sort.Strings(middle)
				if len(kinds) != 7 || kinds[0] != "usage" || strings.Join(kinds[5:], " ") != "usage done" ||
					strings.Join(middle, " ") != "tool_call tool_call tool_result tool_result" {
					t.Fatalf("events = %v", kinds)
				}
				res := events[len(events)-1].Result
				if res.Status != StatusDone || res.Text != "all good" || c.count() != 2 || res.Usage.PromptTokens != 8 {
					t.Fatalf("result = %+v runs %d", res, c.count())
				}
				orders := []string{fmt.Sprint(c.Args[0]["order"]), fmt.Sprint(c.Args[1]["order"])}
				sort.Strings(orders)
				if orders[0] != "1" || orders[1] != "2" {
					t.Fatalf("assembled args = %v", c.Args)
				}
				if !strings.Contains(m.sent()[0].Body.Raw, tt.wantStream) {
					t.Fatalf("request did not ask for a stream: %s", m.sent()[0].Body.Raw)
				}
				assertBalanced(t, res.Messages)
			})
		}
	}
}

func TestStreamCutOffKeepsPartialText(t *testing.T) {
	cut := openAIStreamToolTurn[:strings.Index(openAIStreamToolTurn, "check café")+8]
	m := newScripted(t, StyleOpenAI, turn{Raw: cut, Split: 5})
	ch, err := m.client(ClientOptions{Retries: -1}).Stream(context.Background(), "check", mustToolkit(t))
	if err != nil {
		t.Fatal(err)
	}
	events := collect(t, ch)
	last := events[len(events)-1]
	if last.Type != EventError || last.Err == nil || !strings.Contains(last.Err.Error(), "stream ended before the reply was complete") {
		t.Fatalf("last event = %+v", last)
	}
	if last.Result.Text != "Let me " || len(last.Result.Messages) != 1 {
		t.Fatalf("partial result = %+v", last.Result)
	}
}

func TestStreamPendingBeforeWaitFor(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		t.Run(string(style), func(t *testing.T) {
			var c counter
			// order is appended by the reader and by WaitFor, on another
			// goroutine: a mutex, or appends get lost (the test was flaky).
			var mu sync.Mutex
			var order []string
			note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
			m := newScripted(t, style, turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"9"}`)}}, turn{Text: "refunded"})
			client := m.client(ClientOptions{WaitFor: func(r Request) (Answer, error) {
				note("waitFor")
				return Answer{ID: r.ID, Ok: true}, nil
			}})
			ch, err := client.Stream(context.Background(), "refund", mustToolkit(t, RequireApproval(c.tool("refund"))))
			if err != nil {
				t.Fatal(err)
			}
			var text string
			for e := range ch {
				note(e.Type)
				if e.Type == EventText {
					text += e.Delta
				}
				if e.Type == EventPending && (e.Request == nil || e.Request.Kind != KindApproval) {
					t.Fatalf("pending event without the request: %+v", e)
				}
			}
			// The channel is buffered, so "waitFor" may be appended before the
			// consumer reads the pending event; the loop sends pending first,
			// which the order of the loop's own events shows.
			var loopOrder []string
			for _, o := range order {
				if o != "waitFor" && o != EventText {
					loopOrder = append(loopOrder, o)
				}
			}
			got := strings.Join(loopOrder, " ")
			if got != "usage tool_call pending tool_result usage done" || text != "refunded" || c.count() != 1 {
				t.Fatalf("events = %s, text %q, runs %d", got, text, c.count())
			}
		})
	}
}

// A server that ignores "stream" and answers with plain JSON still works:
// the reply is read whole and streamed as one delta.
func TestStreamAcceptsAWholeReply(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Raw: openAIReply(turn{Text: "all at once"})})
	ch, err := m.client(ClientOptions{}).Stream(context.Background(), "hi", mustToolkit(t))
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	var last StreamEvent
	for e := range ch {
		if e.Type == EventText {
			text = append(text, e.Delta)
		}
		last = e
	}
	if strings.Join(text, "|") != "all at once" || last.Type != EventDone || last.Result.Text != "all at once" {
		t.Fatalf("deltas %q, last %+v", text, last)
	}
}

func TestStreamWithAnswer(t *testing.T) {
	var c counter
	m := newScripted(t, StyleAnthropic, turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"5"}`)}}, turn{Text: "refunded order 5"})
	client := m.client(ClientOptions{})
	tk := mustToolkit(t, RequireApproval(c.tool("refund")))
	halted, err := client.Run(context.Background(), "refund order 5", tk)
	if err != nil || halted.Status != StatusPending {
		t.Fatalf("halted %+v err %v", halted, err)
	}
	if _, err := client.StreamWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, Answer{ID: "other", Ok: true}); !errors.Is(err, ErrCannotResume) || c.count() != 0 {
		t.Fatalf("a mismatched answer must be refused before streaming: %v", err)
	}
	ch, err := client.StreamWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, Answer{ID: halted.Pending.ID, Ok: true})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var text string
	for e := range ch {
		if e.Type == EventText {
			text += e.Delta
			continue
		}
		kinds = append(kinds, e.Type)
	}
	if strings.Join(kinds, " ") != "tool_result usage done" || text != "refunded order 5" || c.count() != 1 {
		t.Fatalf("events %v text %q runs %d", kinds, text, c.count())
	}
}
