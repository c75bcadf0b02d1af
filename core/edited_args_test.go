package core

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// Issue 15: approving with answer.data.args = {"order": "999"} ran order 999
// while toolCalls[].args and the transcript still said 42. Records tell
// what ran, with what the model asked for beside it.

const (
	askedArgs  = `{"order":"42"}`
	editedArgs = `{"order":"999"}`
)

// editedAnswer approves with the order changed to 999.
func editedAnswer(id string) Answer {
	return Answer{ID: id, Ok: true, Data: map[string]any{"args": map[string]any{"order": "999"}}}
}

// transcriptArgs reads the arguments of the first tool call of the last
// assistant message with tool calls, in either style.
func transcriptArgs(t *testing.T, msgs []any) string {
	t.Helper()
	for i := len(msgs) - 1; i >= 0; i-- {
		m := gjson.ParseBytes(messageBytes(t, msgs[i]))
		if m.Get("role").String() != "assistant" {
			continue
		}
		if tc := m.Get("tool_calls.0.function.arguments"); tc.Exists() {
			return tc.String()
		}
		for _, b := range m.Get("content").Array() {
			if b.Get("type").String() == "tool_use" {
				return b.Get("input").Raw
			}
		}
	}
	t.Fatal("no tool call in the transcript")
	return ""
}

// observed collects what the hooks, the metrics and the events saw.
type observed struct {
	mu                sync.Mutex
	beforeArgs        []map[string]any
	afterArgs         []string
	metric            []MetricEvent
	resultArgs, resOA []string
}

func (o *observed) options(opts ClientOptions) ClientOptions {
	opts.Hooks = &Hooks{BeforeTool: func(_ context.Context, ev BeforeToolEvent) (*ToolOverride, error) {
		o.mu.Lock()
		o.beforeArgs = append(o.beforeArgs, ev.Args)
		o.mu.Unlock()
		return nil, nil
	}, AfterTool: func(_ context.Context, ev AfterToolEvent) (*ToolOverride, error) {
		o.mu.Lock()
		o.afterArgs = append(o.afterArgs, mustJSON(ev.Args))
		o.mu.Unlock()
		return nil, nil
	}}
	opts.OnMetric = func(e MetricEvent) {
		if e.Kind == "tool" && !e.Pending {
			o.mu.Lock()
			o.metric = append(o.metric, e)
			o.mu.Unlock()
		}
	}
	return opts
}

func TestApprovalEditsAreRecorded(t *testing.T) {
	type path func(t *testing.T, m *scriptedModel, o *observed, tk *Toolkit) RunResult
	inline := func(t *testing.T, m *scriptedModel, o *observed, tk *Toolkit) RunResult {
		res, err := m.client(o.options(ClientOptions{WaitFor: func(r Request) (Answer, error) { return editedAnswer(r.ID), nil }})).Run(context.Background(), "refund", tk)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	resume := func(stream bool) path {
		return func(t *testing.T, m *scriptedModel, o *observed, tk *Toolkit) RunResult {
			client := m.client(o.options(ClientOptions{}))
			halted, err := client.Run(context.Background(), "refund", tk)
			if err != nil || halted.Pending == nil {
				t.Fatalf("halt: %v", err)
			}
			ans := editedAnswer(halted.Pending.ID)
			if !stream {
				res, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, ans)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			events, err := client.StreamWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending, ans)
			if err != nil {
				t.Fatal(err)
			}
			var last StreamEvent
			for e := range events {
				if e.Type == EventToolResult {
					o.resultArgs = append(o.resultArgs, e.ArgsJSON)
					o.resOA = append(o.resOA, e.OriginalArgs)
				}
				last = e
			}
			return *last.Result
		}
	}
	paths := map[string]path{"inline WaitFor": inline, "RunWithAnswer": resume(false), "StreamWithAnswer": resume(true)}
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		for name, run := range paths {
			t.Run(string(style)+" "+name, func(t *testing.T) {
				var c counter
				var o observed
				m := newScripted(t, style, turn{Calls: []ToolRequest{call("c1", "refund", askedArgs)}},
					turn{Text: "refunded"})
				tk := mustToolkit(t, RequireApproval(c.tool("refund")))
				res := run(t, m, &o, tk)
				if res.Status != StatusDone || c.count() != 1 || c.Args[0]["order"] != "999" {
					t.Fatalf("status %s, runs %d, args %v", res.Status, c.count(), c.Args)
				}
				rec := res.ToolCalls[len(res.ToolCalls)-1]
				if string(rec.RawArgs) != editedArgs || string(rec.OriginalArgs) != askedArgs {
					t.Fatalf("record args %s, originalArgs %s", rec.RawArgs, rec.OriginalArgs)
				}
				if got := transcriptArgs(t, res.Messages); got != editedArgs {
					t.Fatalf("the transcript's tool call says %s", got)
				}
				sent := m.sent()
				if got := transcriptArgs(t, anySlice(sent[len(sent)-1].Body.Get("messages"))); got != editedArgs {
					t.Fatalf("the model was told %s", got)
				}
				assertBalanced(t, res.Messages)
				if last := o.afterArgs[len(o.afterArgs)-1]; last != editedArgs {
					t.Fatalf("AfterTool saw %s", last)
				}
				// BeforeTool sees a call once, as the model asked it.
				if len(o.beforeArgs) != 1 || o.beforeArgs[0]["order"] != "42" {
					t.Fatalf("BeforeTool saw %v", o.beforeArgs)
				}
				if len(o.metric) != 1 || o.metric[0].Args != editedArgs || o.metric[0].OriginalArgs != askedArgs {
					t.Fatalf("metric events %+v", o.metric)
				}
				if name == "StreamWithAnswer" && (len(o.resultArgs) != 1 || o.resultArgs[0] != editedArgs || o.resOA[0] != askedArgs) {
					t.Fatalf("tool_result events: args %v originalArgs %v", o.resultArgs, o.resOA)
				}
			})
		}
	}
}

func anySlice(v gjson.Result) []any {
	var out []any
	for _, m := range v.Array() {
		out = append(out, json.RawMessage(m.Raw))
	}
	return out
}

// An approval that sends the same arguments back edits nothing:
// originalArgs stays out and the model's text is kept as it was.
func TestApprovalWithTheSameArgsIsNoEdit(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "refund", `{ "order" : "42" }`)}}, turn{Text: "ok"})
	client := m.client(ClientOptions{WaitFor: func(r Request) (Answer, error) {
		return Answer{ID: r.ID, Ok: true, Data: map[string]any{"args": map[string]any{"order": "42"}}}, nil
	}})
	res, err := client.Run(context.Background(), "refund", mustToolkit(t, RequireApproval(c.tool("refund"))))
	if err != nil || len(res.ToolCalls) != 1 {
		t.Fatal(err)
	}
	if rec := res.ToolCalls[0]; string(rec.RawArgs) != `{ "order" : "42" }` || rec.OriginalArgs != nil {
		t.Fatalf("record %s / %s", rec.RawArgs, rec.OriginalArgs)
	}
}
