package journal

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/wire"
)

// sample is one entry of every kind, with every field a kind uses set.
func sample() []Entry {
	return []Entry{
		Start("run_1", "refund order 42", []json.RawMessage{json.RawMessage(`{"role":"user","content":"hi"}`)}, json.RawMessage(`{"workspace":"w"}`)),
		{Kind: KindModel, At: 1, Turn: 1, Attempt: 1},
		{Kind: KindTurn, At: 2, Turn: 1, Message: json.RawMessage(`{"role":"assistant","tool_calls":[]}`), Text: "ok \"quoted\"\n",
			Calls: []wire.ToolCall{{ID: "c1", Name: "refund", Arguments: `{"order":"42"}`}}, Usage: &wire.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}, Model: "m"},
		{Kind: KindSuspend, Turn: 1, Call: "c1", Request: &tool.Request{ID: "req_1", Kind: "approval", Prompt: "Allow?", Data: map[string]any{"tool": "refund"}}},
		AnswerEntry(tool.Answer{ID: "req_1", Ok: true, Data: map[string]any{"args": map[string]any{"order": "43"}}}, "link"),
		{Kind: KindCall, Turn: 1, Call: "c1", Name: "refund", Args: json.RawMessage(`{"order":"43"}`), Asked: json.RawMessage(`{"order":"42"}`), Attempt: 1, IdempotencyKey: "run_1:c1"},
		{Kind: KindOutcome, Turn: 1, Call: "c1", Name: "refund", Args: json.RawMessage(`{"order":"43"}`), Output: "refunded", IsError: true, Declined: true, Recorded: true, Metadata: json.RawMessage(`{"k":1}`)},
		{Kind: KindEnd, Status: "done", Limit: "maxTurns", Text: "bye", Error: "e"},
	}
}

func TestEntriesRoundTripAsJSON(t *testing.T) {
	for _, e := range sample() {
		b, err := e.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b) {
			t.Fatalf("%s: invalid JSON %s", e.Kind, b)
		}
		back, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", e.Kind, err)
		}
		if !reflect.DeepEqual(back, e) {
			t.Fatalf("%s:\n got %+v\nwant %+v", e.Kind, back, e)
		}
	}
}

func TestDecodeRefusesWhatIsNotAnEntry(t *testing.T) {
	for text, want := range map[string]string{
		`nope`:                           "invalid",
		`{"turn":1}`:                     `no "kind"`,
		`{"kind":"turn","turn":"1"}`:     `"entry.turn" must be a whole number`,
		`{"kind":"start","history":[1]}`: "must be an object",
		strings.Repeat("[", 2000):        "nested",
	} {
		if _, err := Decode([]byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%.30s) = %v, want %q", text, err, want)
		}
	}
}

func TestReplayFollowsTheRun(t *testing.T) {
	st, err := Replay(sample())
	if err != nil {
		t.Fatal(err)
	}
	if st.Start == nil || st.End == nil || len(st.Turns) != 1 || st.Turns[0].Attempts != 1 || st.LastAt != 2 {
		t.Fatalf("%+v", st)
	}
	c := st.Turns[0].Calls[0]
	if len(c.Starts) != 1 || c.Outcome == nil || len(c.Suspends) != 1 || c.Suspended() != nil {
		t.Fatalf("call %+v", c)
	}
	if a, ok := st.Answers["req_1"]; !ok || a.Seq != 4 || c.StartsAfter(a.Seq) != 1 {
		t.Fatalf("answers %+v", st.Answers)
	}
}

func TestReplayKeepsTheFirstAnswer(t *testing.T) {
	es := sample()[:4]
	es = append(es, AnswerEntry(tool.Answer{ID: "req_1", Ok: false}, "a"), AnswerEntry(tool.Answer{ID: "req_1", Ok: true}, "b"))
	st, err := Replay(es)
	if err != nil || st.Answers["req_1"].By != "a" {
		t.Fatalf("%v %+v", err, st.Answers)
	}
}

func TestMemoryRefusesADuplicateOnce(t *testing.T) {
	m := NewMemory()
	ctx := context.Background()
	e := Entry{Kind: KindCall, Turn: 1, Call: "c1", Attempt: 1}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := m.Record(ctx, e)
			if err != nil && !errors.Is(err, ErrDuplicate) {
				t.Error(err)
			}
			mu.Lock()
			if err == nil {
				ok++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if ok != 1 {
		t.Fatalf("%d of 8 racing records of one key succeeded", ok)
	}
}
