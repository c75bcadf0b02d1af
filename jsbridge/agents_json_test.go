//go:build js && wasm

package jsbridge

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
)

// decode parses the hand-written JSON with encoding/json (tests only).
func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return v
}

func TestTaskResultJSON(t *testing.T) {
	req := core.Request{ID: "r1", Kind: "approval", Data: map[string]any{"path": []string{"support", "billing"}, "tool": "refund"}}
	cases := []struct {
		name string
		in   agents.TaskResult
		want map[string]any
	}{
		{"done", agents.TaskResult{Text: "ok \"q\" <b>", Status: "done", Turns: 2, TotalTokens: 30},
			map[string]any{"status": "done", "text": "ok \"q\" <b>", "turns": 2.0, "totalTokens": 30.0}},
		{"incomplete", agents.TaskResult{Text: "budget", IsError: true, Status: "incomplete", Limit: "maxTokens"},
			map[string]any{"status": "incomplete", "text": "budget", "isError": true, "limit": "maxTokens", "turns": 0.0, "totalTokens": 0.0}},
		{"pending", agents.TaskResult{Status: "pending", Pending: &req, Turns: 1},
			map[string]any{"status": "pending", "text": "", "turns": 1.0, "totalTokens": 0.0,
				"pending": map[string]any{"id": "r1", "kind": "approval", "data": map[string]any{"path": []any{"support", "billing"}, "tool": "refund"}}}},
	}
	for _, c := range cases {
		got := decode(t, taskResultJSON(c.in)).(map[string]any)
		if p, ok := got["pending"].(map[string]any); ok {
			// Keep only the keys the case names: the Request's encoding owns the rest.
			for k := range p {
				if _, want := c.want["pending"].(map[string]any)[k]; !want {
					delete(p, k)
				}
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.name, got, c.want)
		}
	}
}

func TestViewsAndEventJSON(t *testing.T) {
	views := decode(t, viewsJSON([]agents.HandleView{
		{ID: "root/support.1", Agent: "support", Path: []string{"support"}, State: agents.StateSuspended, Tokens: 5, Turns: 1, PendingKind: "approval"},
		{ID: "root/support.1/billing.1", Agent: "billing", Path: []string{"support", "billing"}, State: agents.StateIdle, Inbox: 2},
	}))
	want := []any{
		map[string]any{"id": "root/support.1", "agent": "support", "path": []any{"support"}, "state": "suspended", "tokens": 5.0, "turns": 1.0, "inbox": 0.0, "pendingKind": "approval"},
		map[string]any{"id": "root/support.1/billing.1", "agent": "billing", "path": []any{"support", "billing"}, "state": "idle", "tokens": 0.0, "turns": 0.0, "inbox": 2.0},
	}
	if !reflect.DeepEqual(views, want) {
		t.Errorf("views:\n got %#v\nwant %#v", views, want)
	}
	if got := decode(t, viewsJSON(nil)); !reflect.DeepEqual(got, []any{}) {
		t.Errorf("no views: %#v", got)
	}
	ev := decode(t, eventJSON(agents.Event{Type: "settled", Handle: "root/a.1", Path: []string{"a"}, State: agents.StateIdle,
		Result: &agents.TaskResult{Status: "done", Text: "x"}})).(map[string]any)
	if ev["type"] != "settled" || ev["result"].(map[string]any)["text"] != "x" || !reflect.DeepEqual(ev["path"], []any{"a"}) {
		t.Errorf("event: %#v", ev)
	}
	root := decode(t, eventJSON(agents.Event{Type: "closed", Handle: "root"})).(map[string]any)
	if !reflect.DeepEqual(root["path"], []any{}) {
		t.Errorf("the root's path: %#v", root["path"])
	}
	post := decode(t, postResultJSON(agents.PostResult{Err: "inbox full"}))
	if !reflect.DeepEqual(post, map[string]any{"ok": false, "error": "inbox full"}) {
		t.Errorf("post: %#v", post)
	}
}

func TestLabelled(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want map[string]any
	}{
		{"stream", core.StreamEvent{Type: "text", Delta: "hi"}, map[string]any{"type": "text", "delta": "hi"}},
		{"metric", core.MetricEvent{Kind: "tool", Tool: "refund", IsError: true}, map[string]any{"kind": "tool", "tool": "refund", "isError": true}},
		{"empty object", map[string]any{}, map[string]any{}},
	}
	for _, c := range cases {
		got := decode(t, labelled(c.in, "root/a.1/b.1", []string{"a", "b"})).(map[string]any)
		if got["handle"] != "root/a.1/b.1" || !reflect.DeepEqual(got["path"], []any{"a", "b"}) {
			t.Errorf("%s: label missing: %#v", c.name, got)
		}
		for k, v := range c.want {
			if !reflect.DeepEqual(got[k], v) {
				t.Errorf("%s: %s = %#v, want %#v", c.name, k, got[k], v)
			}
		}
	}
}
