package core

import (
	"context"
	"sync"
	"testing"
)

// A BeforeTool hook that suspends a call is a suspension in the metrics,
// exactly as a tool's own: one tool event marked Pending, not an error;
// the approved call then runs and is counted once more.
func TestGuardSuspensionIsCountedPending(t *testing.T) {
	var c counter
	m := newScripted(t, StyleOpenAI,
		turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"7"}`)}},
		turn{Text: "refunded"})
	var mu sync.Mutex
	var events []MetricEvent
	asked := false
	client := m.client(ClientOptions{
		Hooks: &Hooks{BeforeTool: func(_ context.Context, ev BeforeToolEvent) (*ToolOverride, error) {
			if asked {
				return nil, nil
			}
			r := Pending(Request{Kind: KindApproval, Prompt: "refund order 7?"})
			return &ToolOverride{Result: &r}, nil
		}},
		WaitFor: func(req Request) (Answer, error) { asked = true; return Answer{ID: req.ID, Ok: true}, nil },
		OnMetric: func(e MetricEvent) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		},
	})
	res, err := client.Run(context.Background(), "refund", mustToolkit(t, c.tool("refund")))
	if err != nil || res.Status != StatusDone || c.count() != 1 {
		t.Fatalf("run %+v err %v runs %d", res, err, c.count())
	}
	var pending, ran int
	for _, e := range events {
		if e.Kind != "tool" {
			continue
		}
		if e.IsError {
			t.Errorf("tool event counted as an error: %+v", e)
		}
		if e.Pending {
			pending++
		} else {
			ran++
		}
	}
	if pending != 1 || ran != 1 {
		t.Fatalf("tool events: %d pending, %d ran; want 1 and 1", pending, ran)
	}
}
