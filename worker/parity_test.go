package worker

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	name string
	data map[string]any
}

// parseSSE splits a complete event stream; it fails on a truncated one.
func parseSSE(t *testing.T, body string) []sseEvent {
	t.Helper()
	if !strings.HasSuffix(body, "\n\n") {
		t.Fatalf("stream does not end with a blank line: %q", body)
	}
	var out []sseEvent
	for _, block := range strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n") {
		var e sseEvent
		var data string
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "event: "):
				e.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				data = strings.TrimPrefix(line, "data: ")
			case strings.HasPrefix(line, ":"):
			default:
				t.Fatalf("unexpected line %q in %q", line, body)
			}
		}
		if data == "" {
			continue
		}
		if err := json.Unmarshal([]byte(data), &e.data); err != nil {
			t.Fatalf("event %s data is not JSON: %q", e.name, data)
		}
		out = append(out, e)
	}
	return out
}

func eventNames(events []sseEvent) string {
	var names []string
	for _, e := range events {
		names = append(names, e.name)
	}
	return strings.Join(names, ",")
}

func (hs *harness) stream(path string, v any) []sseEvent {
	hs.t.Helper()
	b, _ := json.Marshal(v)
	rec := hs.Do(http.MethodPost, path, string(b))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		hs.t.Fatalf("stream answered %d %s: %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
	return parseSSE(hs.t, rec.Body.String())
}

func TestStreamRunMatchesPlainRun(t *testing.T) {
	hs := newHarness(t, nil)
	events := hs.stream("/v1/run", map[string]any{"prompt": "add 2 and 3", "stream": true})
	if got := eventNames(events); got != "tool_call,tool_result,usage,text,usage,done" && got != "usage,tool_call,tool_result,text,usage,done" {
		t.Fatalf("events %s", got)
	}
	done := events[len(events)-1].data
	code, plain := hs.Post("/v1/run", map[string]any{"prompt": "add 2 and 3"})
	if code != http.StatusOK {
		t.Fatalf("plain run %d", code)
	}
	for _, k := range []string{"text", "status", "turns", "toolCallCount", "model"} {
		if !jsonEqual(done[k], plain[k]) {
			t.Errorf("done.%s = %v, plain %v", k, done[k], plain[k])
		}
	}
	if len(done) != len(plain) {
		t.Errorf("done has keys %v, plain %v", keys(done), keys(plain))
	}
}

func TestStreamPendingAndResume(t *testing.T) {
	hs := newHarness(t, nil)
	events := hs.stream("/v1/run", map[string]any{"prompt": "refund order 42", "stream": true})
	done := events[len(events)-1]
	if done.name != "done" || done.data["status"] != "pending" || !strings.HasPrefix(done.data["state"].(string), "tn1.") {
		t.Fatalf("last event %s %v", done.name, done.data)
	}
	if !strings.Contains(eventNames(events), "pending") {
		t.Fatalf("no pending event: %s", eventNames(events))
	}
	resumed := hs.stream("/v1/resume", map[string]any{"state": done.data["state"], "answer": map[string]any{"id": pendingID(done.data), "ok": true}, "stream": true})
	last := resumed[len(resumed)-1]
	if last.name != "done" || last.data["text"] != "done: refunded order 42" || hs.refunds.Load() != 1 {
		t.Fatalf("resume ended %s %v (refunds %d)", last.name, last.data, hs.refunds.Load())
	}
}

func TestStreamUpstreamErrorEvent(t *testing.T) {
	hs := newHarness(t, nil)
	events := hs.stream("/v1/run", map[string]any{"prompt": "fail please", "stream": true})
	last := events[len(events)-1]
	e, _ := last.data["error"].(map[string]any)
	if last.name != "error" || e["code"] != "upstream_error" || e["upstreamStatus"] != float64(503) {
		t.Fatalf("last event %s %v", last.name, last.data)
	}
	// Input errors come before the stream: plain JSON.
	code, body := hs.Post("/v1/run", map[string]any{"stream": true})
	if code != http.StatusBadRequest || errCode(body) != "missing_field" {
		t.Fatalf("%d %v", code, body)
	}
}

// failingKV fails every call.
type failingKV struct{}

func (failingKV) Get(context.Context, string) (string, bool, error) {
	return "", false, errors.New("kv down")
}
func (failingKV) Put(context.Context, string, string, time.Duration) error {
	return errors.New("kv down")
}

func TestConversationStore(t *testing.T) {
	hs := newHarness(t, nil)
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "hi", "conversation": "c1"})
	if code != http.StatusBadRequest || errCode(body) != "conversations_unavailable" {
		t.Fatalf("without a namespace: %d %v", code, body)
	}
	kv := NewMemoryKV()
	hs.h.opts.Conversations = func() KVNamespace { return kv }
	if code, body = hs.Post("/v1/run", map[string]any{"prompt": "add 2 and 3", "conversation": "c1"}); code != http.StatusOK || body["text"] != "done: 5" {
		t.Fatalf("first: %d %v", code, body)
	}
	n := len(hs.llm.Requests())
	if code, body = hs.Post("/v1/run", map[string]any{"prompt": "and now?", "conversation": "c1"}); code != http.StatusOK {
		t.Fatalf("second: %d %v", code, body)
	}
	sent := hs.llm.Requests()[n]
	for _, want := range []string{"add 2 and 3", `"content":"5"`, "done: 5", "and now?"} {
		if !strings.Contains(sent, want) {
			t.Errorf("second request lacks %q: %s", want, sent)
		}
	}
	stored, found, _ := kv.Get(context.Background(), "conv:c1")
	var sc storedConversation
	if !found || json.Unmarshal([]byte(stored), &sc) != nil || sc.V != 1 || len(sc.Messages) != 6 {
		t.Fatalf("stored %q", stored)
	}
	// Streamed turns load and save too.
	events := hs.stream("/v1/run", map[string]any{"prompt": "third", "conversation": "c1", "stream": true})
	if events[len(events)-1].name != "done" {
		t.Fatalf("stream: %v", events[len(events)-1])
	}
	stored, _, _ = kv.Get(context.Background(), "conv:c1")
	if json.Unmarshal([]byte(stored), &sc) != nil || len(sc.Messages) != 8 {
		t.Fatalf("after the stream: %q", stored)
	}
	// A conversation that halts is saved halted; resuming with the id saves
	// the resumed transcript back.
	code, body = hs.Post("/v1/run", map[string]any{"prompt": "refund order 42", "conversation": "r1"})
	if code != http.StatusOK || body["status"] != "pending" {
		t.Fatalf("halt: %d %v", code, body)
	}
	code, body = hs.Post("/v1/resume", map[string]any{"state": body["state"], "answer": map[string]any{"id": pendingID(body), "ok": true}, "conversation": "r1"})
	if code != http.StatusOK || body["text"] != "done: refunded order 42" {
		t.Fatalf("resume: %d %v", code, body)
	}
	stored, _, _ = kv.Get(context.Background(), "conv:r1")
	if !strings.Contains(stored, "done: refunded order 42") {
		t.Fatalf("resumed conversation not saved: %s", stored)
	}
	if code, body = hs.Post("/v1/resume", map[string]any{"state": "x", "answer": map[string]any{"id": "y", "ok": true}, "conversation": "bad id"}); code != http.StatusBadRequest || errCode(body) != "invalid_field" {
		t.Fatalf("resume with a bad id: %d %v", code, body)
	}
	for _, tc := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"prompt": "x", "conversation": "a/b"}, "invalid_field"},
		{map[string]any{"prompt": "x", "conversation": strings.Repeat("a", 129)}, "invalid_field"},
		{map[string]any{"prompt": "x", "conversation": "c1", "messages": []any{map[string]any{"role": "user", "content": "y"}}}, "invalid_field"},
	} {
		if code, body := hs.Post("/v1/run", tc.body); code != http.StatusBadRequest || errCode(body) != tc.code {
			t.Errorf("%v: %d %v", tc.body, code, body)
		}
	}
	// The cap: a transcript over MAX_CONVERSATION_BYTES is not saved (413).
	hs.env["MAX_CONVERSATION_BYTES"] = "1024"
	code, body = hs.Post("/v1/run", map[string]any{"prompt": strings.Repeat("long ", 300), "conversation": "big"})
	if code != http.StatusRequestEntityTooLarge || errCode(body) != "conversation_too_large" {
		t.Fatalf("cap: %d %v", code, body)
	}
	if _, found, _ := kv.Get(context.Background(), "conv:big"); found {
		t.Fatal("an oversized conversation was saved")
	}
	hs.env["MAX_CONVERSATION_BYTES"] = "ten"
	if code, body = hs.Post("/v1/run", map[string]any{"prompt": "x", "conversation": "c2"}); code != http.StatusInternalServerError || errCode(body) != "config" {
		t.Fatalf("bad setting: %d %v", code, body)
	}
	delete(hs.env, "MAX_CONVERSATION_BYTES")
	// A failing namespace is a 503 naming the store, not the provider.
	hs.h.opts.Conversations = func() KVNamespace { return failingKV{} }
	if code, body = hs.Post("/v1/run", map[string]any{"prompt": "x", "conversation": "c1"}); code != http.StatusServiceUnavailable || errCode(body) != "conversation_store" {
		t.Fatalf("failing kv: %d %v", code, body)
	}
}

func TestFinishReason(t *testing.T) {
	for in, want := range map[string]string{"end_turn": "stop", "stop": "stop", "tool_use": "tool_calls", "tool_calls": "tool_calls", "max_tokens": "length", "length": "length", "refusal": "content_filter", "stop_sequence": "stop"} {
		if got := FinishReason(in, false); got != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
	}
	if FinishReason("", true) != "tool_calls" || FinishReason("", false) != "stop" {
		t.Error("empty reason")
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
