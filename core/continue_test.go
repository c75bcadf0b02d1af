package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/toolnexus/wasm/core/journal"
)

// The journal's promise (core/journal, issue 31): a run interrupted at any
// step continues from its journal, no approved call runs twice, and a call
// whose outcome was lost is asked about, never guessed.

// reactiveModel answers from the transcript rather than from a script, so
// that a model call made again after an interruption gets the same reply:
// the user's "refund order N" ⇒ refund {"order":"N"}; "add" ⇒ add then
// refund; a tool result ⇒ "done: <output>". It counts its calls and can
// fail the n-th one.
type reactiveModel struct {
	calls  atomic.Int32
	failAt int32 // the call that fails (0: none)
	errs   int32 // how many calls fail from failAt on
}

func (m *reactiveModel) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	n := m.calls.Add(1)
	if m.failAt > 0 && n >= m.failAt && n < m.failAt+max(m.errs, 1) {
		return nil, errors.New("connection reset")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	msgs := gjson.GetBytes(req.Body, "messages").Array()
	last := msgs[len(msgs)-1]
	var tr turn
	switch last.Get("role").String() {
	case "tool":
		results := []string{}
		for i := len(msgs) - 1; i >= 0 && msgs[i].Get("role").String() == "tool"; i-- {
			results = append([]string{msgs[i].Get("content").String()}, results...)
		}
		if strings.HasPrefix(results[0], "sum ") {
			tr = turn{Calls: []ToolRequest{call("c2", "refund", `{"order":"7"}`)}}
		} else {
			tr = turn{Text: "done: " + strings.Join(results, " | ")}
		}
	default:
		text := last.Get("content").String()
		switch {
		case strings.HasPrefix(text, "refund order "):
			tr = turn{Calls: []ToolRequest{call("c1", "refund", fmt.Sprintf(`{"order":%q}`, strings.TrimPrefix(text, "refund order ")))}}
		case text == "add then refund":
			tr = turn{Calls: []ToolRequest{call("c1", "add", `{"a":2,"b":3}`)}}
		default:
			tr = turn{Text: "hello"}
		}
	}
	return reply(200, openAIReply(tr)), nil
}

// effects counts the refunds a refund tool really made, by order.
type effects struct {
	mu   sync.Mutex
	done map[string]int
	keys []string
	// cut, when set, is called after the effect and before the tool
	// returns: the process dies between the side effect and its record.
	cut func()
}

func (e *effects) refund(idempotent bool) Tool {
	t := Tool{Name: "refund", Description: "refund an order", Source: SourceNative, NeedsApproval: true, Idempotent: idempotent,
		InputSchema: JSONSchema{"type": "object", "properties": map[string]any{"order": map[string]any{"type": "string"}}, "required": []any{"order"}},
		Execute: func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
			if err := tctx.Ctx.Err(); err != nil {
				return ToolResult{}, err // died before the effect
			}
			e.mu.Lock()
			if e.done == nil {
				e.done = map[string]int{}
			}
			e.done[args["order"].(string)]++
			e.keys = append(e.keys, tctx.IdempotencyKey)
			cut := e.cut
			e.mu.Unlock()
			if cut != nil {
				cut()
				return ToolResult{}, context.Canceled
			}
			return ToolResult{Output: "refunded order " + args["order"].(string)}, nil
		}}
	return t
}

func (e *effects) count(order string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.done[order]
}

// cutJournal records into inner until n entries are recorded, then the
// "process dies": it cancels the run and refuses every later entry.
type cutJournal struct {
	inner  journal.Journal
	n      int
	cancel func()
	mu     sync.Mutex
	seen   int
}

func (c *cutJournal) Load(ctx context.Context) ([]journal.Entry, error) { return c.inner.Load(ctx) }

func (c *cutJournal) Record(ctx context.Context, e journal.Entry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen >= c.n {
		c.cancel()
		return errors.New("the process died")
	}
	if err := c.inner.Record(ctx, e); err != nil {
		return err
	}
	c.seen++
	if c.seen == c.n {
		c.cancel()
	}
	return nil
}

func journalClient(m Transport, waitFor func(Request) (Answer, error)) *Client {
	return CreateClient(ClientOptions{BaseURL: "https://model.test/v1", Model: "m", Transport: m, WaitFor: waitFor, Retries: -1})
}

func started(t *testing.T, prompt string) *journal.Memory {
	t.Helper()
	j := journal.NewMemory()
	if err := j.Record(context.Background(), journal.Start("run_1", prompt, nil, nil)); err != nil {
		t.Fatal(err)
	}
	return j
}

// finish continues the run in j until it ends, answering each halt:
// approvals are approved, outcome-unknown questions get choose. It
// returns the result and the kinds of the requests it answered.
func finish(t *testing.T, c *Client, tk *Toolkit, j journal.Journal, choose func(Request) Answer) (RunResult, []string) {
	t.Helper()
	var asked []string
	for step := 0; ; step++ {
		if step > 10 {
			t.Fatal("the run does not end")
		}
		res, err := c.Continue(context.Background(), tk, j)
		if err != nil {
			t.Fatalf("continue: %v", err)
		}
		if res.Status != StatusPending {
			return res, asked
		}
		p := *res.Pending
		asked = append(asked, p.Kind)
		ans := Answer{ID: p.ID, Ok: true}
		if p.Kind == KindOutcomeUnknown {
			ans = choose(p)
		}
		if err := j.Record(context.Background(), journal.AnswerEntry(ans, "test")); err != nil {
			t.Fatal(err)
		}
	}
}

// TestInterruptedAnywhereAnApprovedCallRunsAtMostOnce cuts a journaled
// run after each of its steps (and, for the refund itself, between its
// effect and its record), continues it on a fresh client, and holds the
// promise: the refund ran at most once, exactly once when nobody was
// asked about it, and a lost outcome was asked about.
func TestInterruptedAnywhereAnApprovedCallRunsAtMostOnce(t *testing.T) {
	// One uninterrupted run first: how many entries it records.
	full := started(t, "refund order 42")
	var fx effects
	tk := mustToolkit(t, fx.refund(false))
	res, asked := finish(t, journalClient(&reactiveModel{}, nil), tk, full, nil)
	if res.Status != StatusDone || res.Text != "done: refunded order 42" || fx.count("42") != 1 || len(asked) != 1 {
		t.Fatalf("uninterrupted: %s %q, %d refunds, asked %v", res.Status, res.Text, fx.count("42"), asked)
	}
	entries, _ := full.Load(context.Background())
	var kinds []string
	for _, e := range entries {
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, " "); got != "start model turn suspend answer decision call outcome model turn end" {
		t.Fatalf("entries: %s", got)
	}

	for _, cutAfterEffect := range []bool{false, true} {
		for n := 1; n < len(entries); n++ {
			name := fmt.Sprintf("after %d entries (%s)", n, kinds[n-1])
			if cutAfterEffect {
				name = "between the refund and its record"
			}
			t.Run(name, func(t *testing.T) {
				j := started(t, "refund order 42")
				var fx effects
				tk := mustToolkit(t, fx.refund(false))
				ctx, cancel := context.WithCancel(context.Background())
				cj := &cutJournal{inner: j, n: n, cancel: cancel}
				if cutAfterEffect {
					cj.n = 1 << 30
					fx.cut = cancel
				}
				c := journalClient(&reactiveModel{}, nil)
				// The first life: until the halt, then the answer, then on.
				for life := 0; life < 3 && ctx.Err() == nil; life++ {
					res, _ := c.Continue(ctx, tk, cj)
					if ctx.Err() != nil || res.Status != StatusPending {
						break
					}
					if err := cj.Record(ctx, journal.AnswerEntry(Answer{ID: res.Pending.ID, Ok: true}, "test")); err != nil {
						break
					}
				}
				cancel()
				fx.cut = nil
				chose := ""
				res, asked := finish(t, journalClient(&reactiveModel{}, nil), tk, j, func(p Request) Answer {
					chose = "failed"
					if fx.count("42") == 1 {
						chose = "happened"
						return AnswerOutcome(p.ID, "refunded order 42 (seen in the ledger)")
					}
					return AnswerDeclined(p.ID, "not in the ledger")
				})
				if res.Status != StatusDone {
					t.Fatalf("status %s", res.Status)
				}
				if got := fx.count("42"); got > 1 {
					t.Fatalf("the refund ran %d times", got)
				}
				unknown := strings.Contains(strings.Join(asked, " "), KindOutcomeUnknown)
				if !unknown && fx.count("42") != 1 {
					t.Fatalf("nobody was asked, and the refund ran %d times", fx.count("42"))
				}
				switch chose {
				case "happened":
					if res.Text != "done: refunded order 42 (seen in the ledger)" {
						t.Fatalf("text %q", res.Text)
					}
				case "failed":
					if !strings.Contains(res.Text, "recorded it as not done: not in the ledger") {
						t.Fatalf("text %q", res.Text)
					}
				}
				if cutAfterEffect && !unknown {
					t.Fatal("a refund cut off after its effect was not asked about")
				}
				assertBalanced(t, res.Messages)
				checkJournal(t, j)
			})
			if cutAfterEffect {
				break
			}
		}
	}
}

// checkJournal replays j: every entry fits, and the run ended.
func checkJournal(t *testing.T, j journal.Journal) {
	t.Helper()
	entries, err := j.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st, err := journal.Replay(entries)
	if err != nil {
		t.Fatal(err)
	}
	if st.End == nil {
		t.Fatal("the run did not record its end")
	}
}

// TestOutcomeUnknownRunAgainRunsItOnceMore: "run it again" runs the call
// with its approval, and the run goes on.
func TestOutcomeUnknownRunAgainRunsItOnceMore(t *testing.T) {
	fx, tk, j, c := approved(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	fx.cut = cancel
	c.Continue(ctx, tk, j) // the refund happens, then the process dies
	fx.cut = nil
	res, asked := finish(t, c, tk, j, func(p Request) Answer {
		if p.Data["tool"] != "refund" || p.Data["args"].(map[string]any)["order"] != "42" || !strings.Contains(p.Prompt, `refund {"order":"42"} was running`) {
			t.Errorf("the question: %+v", p)
		}
		return AnswerRunAgain(p.ID)
	})
	if res.Status != StatusDone || res.Text != "done: refunded order 42" || fx.count("42") != 2 {
		t.Fatalf("%s %q, %d refunds, asked %v", res.Status, res.Text, fx.count("42"), asked)
	}
}

// TestIdempotentToolRunsAgainWithTheSameKey: an approved call of an
// idempotent tool cut off mid-call runs again, unasked, with its key.
func TestIdempotentToolRunsAgainWithTheSameKey(t *testing.T) {
	fx, tk, j, c := approved(t, true)
	ctx, cancel := context.WithCancel(context.Background())
	fx.cut = cancel
	c.Continue(ctx, tk, j)
	fx.cut = nil
	res, asked := finish(t, c, tk, j, nil)
	if res.Status != StatusDone || len(asked) != 0 || fx.count("42") != 2 {
		t.Fatalf("%s, asked %v, %d calls", res.Status, asked, fx.count("42"))
	}
	if fx.keys[0] != "run_1:c1" || fx.keys[1] != fx.keys[0] {
		t.Fatalf("keys %q", fx.keys)
	}
}

// TestAToolWithoutApprovalRunsAgain: a call that needs no approval, cut
// off, runs again; after MaxAttempts it is given up with an error result.
func TestAToolWithoutApprovalRunsAgain(t *testing.T) {
	var adds atomic.Int32
	var cut func()
	add := NativeTool("add", "adds", nil, func(ctx context.Context, args map[string]any) (string, error) {
		adds.Add(1)
		if cut != nil {
			cut()
			return "", ctx.Err()
		}
		return "sum 5", nil
	})
	var fx effects
	tk := mustToolkit(t, add, fx.refund(false))
	j := started(t, "add then refund")
	c := journalClient(&reactiveModel{}, nil)
	for i := 0; i < journal.MaxAttempts; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		cut = cancel
		c.Continue(ctx, tk, j)
	}
	cut = nil
	res, _ := finish(t, c, tk, j, nil)
	if adds.Load() != journal.MaxAttempts {
		t.Fatalf("add ran %d times", adds.Load())
	}
	if !strings.Contains(res.ToolCalls[0].Output, "interrupted while it ran, 3 times") {
		t.Fatalf("records: %+v", res.ToolCalls)
	}
}

// TestModelCallInFlightIsMadeAgain: a model call cut off is made again; a
// model that fails past the retries ends the run with an error that is
// recorded, and Continue then returns it without asking the model again.
func TestModelCallInFlightIsMadeAgain(t *testing.T) {
	var fx effects
	tk := mustToolkit(t, fx.refund(false))
	j := started(t, "hello")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := journalClient(&reactiveModel{}, nil).Continue(ctx, tk, j); err == nil {
		t.Fatal("a cancelled run did not fail")
	}
	res, _ := finish(t, journalClient(&reactiveModel{}, nil), tk, j, nil)
	if res.Text != "hello" || res.Turns != 1 {
		t.Fatalf("%q after %d turns", res.Text, res.Turns)
	}

	j = started(t, "hello")
	m := &reactiveModel{failAt: 1, errs: 9}
	_, err := journalClient(m, nil).Continue(context.Background(), tk, j)
	if err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("err %v", err)
	}
	again := &reactiveModel{}
	res, err = journalClient(again, nil).Continue(context.Background(), tk, j)
	if err == nil || !strings.Contains(err.Error(), "connection reset") || again.calls.Load() != 0 || res.Limit != "error" {
		t.Fatalf("ended run: %v, %d model calls, limit %q", err, again.calls.Load(), res.Limit)
	}
}

// TestModelCallInterruptedTooOftenEndsTheRun: a model call begun
// MaxAttempts times without a reply ends the run with an error.
func TestModelCallInterruptedTooOftenEndsTheRun(t *testing.T) {
	tk := mustToolkit(t)
	j := started(t, "hello")
	for i := 0; i < journal.MaxAttempts; i++ {
		j.Record(context.Background(), journal.Entry{Kind: journal.KindModel, Turn: 1, Attempt: i + 1})
	}
	m := &reactiveModel{}
	_, err := journalClient(m, nil).Continue(context.Background(), tk, j)
	if err == nil || !strings.Contains(err.Error(), "interrupted 3 times") || m.calls.Load() != 0 {
		t.Fatalf("err %v after %d model calls", err, m.calls.Load())
	}
	checkJournal(t, j)
}

// TestWaitForAnswersAreRecordedFirst: with WaitFor the answer is recorded
// before the tool runs, and a run cut off while WaitFor waited asks again
// on its next life, the same request.
func TestWaitForAnswersAreRecordedFirst(t *testing.T) {
	var fx effects
	tk := mustToolkit(t, fx.refund(false))
	j := started(t, "refund order 42")
	ctx, cancel := context.WithCancel(context.Background())
	var firstID string
	c := journalClient(&reactiveModel{}, func(req Request) (Answer, error) {
		firstID = req.ID
		cancel() // the tab is closed while the dialog shows
		<-ctx.Done()
		return Answer{}, ctx.Err()
	})
	c.Continue(ctx, tk, j)
	var seen []string
	c = journalClient(&reactiveModel{}, func(req Request) (Answer, error) {
		seen = append(seen, req.ID)
		return Answer{ID: req.ID, Ok: true}, nil
	})
	res, err := c.Continue(context.Background(), tk, j)
	if err != nil || res.Status != StatusDone || fx.count("42") != 1 || len(seen) != 1 || seen[0] != firstID {
		t.Fatalf("%v %s, %d refunds, asked %v (first %s)", err, res.Status, fx.count("42"), seen, firstID)
	}
	entries, _ := j.Load(context.Background())
	var order []string
	for _, e := range entries {
		order = append(order, e.Kind)
	}
	if got := strings.Join(order, " "); !strings.Contains(got, "suspend answer decision call outcome") {
		t.Fatalf("entries %s", got)
	}
}

// approved is a refund run halted on its approval and approved: the
// journal holds the answer, the refund has not run yet.
func approved(t *testing.T, idempotent bool) (*effects, *Toolkit, *journal.Memory, *Client) {
	t.Helper()
	fx := &effects{}
	tk := mustToolkit(t, fx.refund(idempotent))
	j := started(t, "refund order 42")
	c := journalClient(&reactiveModel{}, nil)
	res, _ := c.Continue(context.Background(), tk, j)
	if res.Status != StatusPending {
		t.Fatalf("the run did not halt: %s", res.Status)
	}
	if err := j.Record(context.Background(), journal.AnswerEntry(Answer{ID: res.Pending.ID, Ok: true}, "test")); err != nil {
		t.Fatal(err)
	}
	return fx, tk, j, c
}

// TestTwoContinuationsRaceOneRuns: two continuations of one run at once
// (two tabs, a retried request): the approved call runs once.
func TestTwoContinuationsRaceOneRuns(t *testing.T) {
	fx, tk, j, _ := approved(t, false)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = journalClient(&reactiveModel{}, nil).Continue(context.Background(), tk, j)
		}()
	}
	wg.Wait()
	if fx.count("42") != 1 {
		t.Fatalf("the refund ran %d times (%v)", fx.count("42"), errs)
	}
}

// TestResumeJournalIsRunWithAnswer: a journal that starts from a halted
// transcript (journal.Resume) and its answer continues like RunWithAnswer.
func TestResumeJournalIsRunWithAnswer(t *testing.T) {
	var fx effects
	tk := mustToolkit(t, fx.refund(false))
	c := journalClient(&reactiveModel{}, nil)
	halted, err := c.Run(context.Background(), "refund order 42", tk)
	if err != nil || halted.Status != StatusPending {
		t.Fatal(err, halted.Status)
	}
	var msgs []json.RawMessage
	for _, m := range halted.Messages {
		msgs = append(msgs, messageBytes(t, m))
	}
	j := journal.NewMemory()
	j.Record(context.Background(), journal.Resume("st_1", msgs, *halted.Pending, nil))
	j.Record(context.Background(), journal.AnswerEntry(Answer{ID: halted.Pending.ID, Ok: true}, "api"))
	res, err := c.Continue(context.Background(), tk, j)
	if err != nil || res.Status != StatusDone || res.Text != "done: refunded order 42" || fx.count("42") != 1 {
		t.Fatalf("%v %s %q %d", err, res.Status, res.Text, fx.count("42"))
	}
	// Again: the recorded end, nothing runs.
	again, err := c.Continue(context.Background(), tk, j)
	if err != nil || again.Text != res.Text || fx.count("42") != 1 {
		t.Fatalf("again: %v %q %d", err, again.Text, fx.count("42"))
	}
}

// TestBadJournalsAreClearErrors: nothing to continue, entries out of
// order, a journal that cannot be read.
func TestBadJournalsAreClearErrors(t *testing.T) {
	tk := mustToolkit(t)
	c := journalClient(&reactiveModel{}, nil)
	cases := []struct {
		name    string
		entries []journal.Entry
		want    string
	}{
		{"empty", nil, "holds no run"},
		{"no start", []journal.Entry{{Kind: journal.KindModel, Turn: 1, Attempt: 1}}, "must begin with a start entry"},
		{"unknown kind", []journal.Entry{journal.Start("r", "hi", nil, nil), {Kind: "nap"}}, "unknown kind"},
		{"outcome of no call", []journal.Entry{journal.Start("r", "hi", nil, nil), {Kind: journal.KindOutcome, Turn: 1, Call: "x"}}, "no tool call"},
		{"a turn out of order", []journal.Entry{journal.Start("r", "hi", nil, nil), {Kind: journal.KindModel, Turn: 2, Attempt: 1}}, "does not follow"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := journal.NewMemory()
			for _, e := range tc.entries {
				j.Record(context.Background(), e)
			}
			_, err := c.Continue(context.Background(), tk, j)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := c.Continue(context.Background(), tk, nil); !errors.Is(err, ErrNoRun) {
		t.Fatalf("nil journal: %v", err)
	}
}

// TestJournalFailureStopsTheRunBeforeTheTool: a journal that cannot record
// the call's start keeps the tool from running.
func TestJournalFailureStopsTheRunBeforeTheTool(t *testing.T) {
	fx, tk, j, c := approved(t, false)
	full := &failingJournal{Journal: j, failKind: journal.KindCall}
	_, err := c.Continue(context.Background(), tk, full)
	if !errors.Is(err, ErrJournal) || fx.count("42") != 0 {
		t.Fatalf("err %v, %d refunds", err, fx.count("42"))
	}
}

type failingJournal struct {
	journal.Journal
	failKind string
}

func (f *failingJournal) Record(ctx context.Context, e journal.Entry) error {
	if e.Kind == f.failKind {
		return errors.New("storage is full")
	}
	return f.Journal.Record(ctx, e)
}
