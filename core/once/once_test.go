package once_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/once"
	"github.com/toolnexus/wasm/toolnexus"
)

// refundModel asks for refund once, then answers with the tool's result.
func refundModel(_ context.Context, req core.GenerateRequest) (core.GenerateResponse, error) {
	if last := req.Messages[len(req.Messages)-1]; last["role"] == "tool" {
		return core.GenerateResponse{Text: "done"}, nil
	}
	return core.GenerateResponse{ToolCalls: []core.ToolRequest{{ID: "call_1", Name: "refund", Arguments: `{"order":"42"}`}}}, nil
}

// halted returns a client, a toolkit whose refund counts its runs, and a
// run halted on refund's approval.
func halted(t *testing.T) (*core.Client, *core.Toolkit, *atomic.Int32, core.RunResult) {
	t.Helper()
	var runs atomic.Int32
	refund := core.RequireApproval(core.NativeTool("refund", "Refund an order", nil,
		func(context.Context, map[string]any) (string, error) { runs.Add(1); return "refunded", nil }))
	tk, err := core.CreateToolkit(context.Background(), core.Options{ExtraTools: []core.Tool{refund}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tk.Close() })
	client := core.CreateGenerateClient(refundModel, core.ClientOptions{Model: "local"})
	res, err := client.Run(context.Background(), "refund order 42", tk)
	if err != nil || res.Status != core.StatusPending || res.Pending == nil {
		t.Fatalf("no halt: %v %+v", err, res)
	}
	return client, tk, &runs, res
}

// stores lists the stores under test. Each opener returns "the store" as
// another caller sees it: for memory the one store of this process, for dir
// a new DirStore on the same folder (another process, or this one after a
// restart).
func stores(t *testing.T) map[string]func() func() once.Store {
	return map[string]func() func() once.Store{
		"memory": func() func() once.Store {
			s := once.NewMemoryStore()
			return func() once.Store { return s }
		},
		"dir": func() func() once.Store {
			dir := filepath.Join(t.TempDir(), "answers")
			return func() once.Store {
				s, err := once.NewDirStore(dir)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		},
	}
}

// TestRunWithAnswerTwiceRunsTheToolTwice is why the store exists: core
// keeps no record of answers, so resuming the same halt twice runs an
// approved tool twice (issue 33).
func TestRunWithAnswerTwiceRunsTheToolTwice(t *testing.T) {
	client, tk, runs, res := halted(t)
	ok := core.Answer{ID: res.Pending.ID, Ok: true}
	for i := 0; i < 2; i++ {
		if _, err := client.RunWithAnswer(context.Background(), tk, res.Messages, *res.Pending, ok); err != nil {
			t.Fatal(err)
		}
	}
	if n := runs.Load(); n != 2 {
		t.Fatalf("refund ran %d times", n)
	}
}

// TestAnAnswerRunsOnce: with a store, the second RunWithAnswer of the same
// request is ErrAnswered (also core.ErrCannotResume) and runs nothing —
// from the same store, or a new one on the same folder.
func TestAnAnswerRunsOnce(t *testing.T) {
	for name, opener := range stores(t) {
		t.Run(name, func(t *testing.T) {
			open := opener()
			client, tk, runs, res := halted(t)
			ctx := context.Background()
			first, err := once.RunWithAnswer(ctx, open(), client, tk, res.Messages, *res.Pending, core.Answer{ID: res.Pending.ID, Ok: true})
			if err != nil || first.Status != core.StatusDone {
				t.Fatalf("first: %v %+v", err, first)
			}
			for _, s := range []once.Store{open(), open()} {
				again, err := once.RunWithAnswer(ctx, s, client, tk, res.Messages, *res.Pending, core.AnswerDeclined(res.Pending.ID, "late"))
				if !errors.Is(err, once.ErrAnswered) || !errors.Is(err, core.ErrCannotResume) {
					t.Fatalf("again: err = %v", err)
				}
				if again.Status != core.StatusIncomplete || again.Pending == nil || len(again.Messages) != len(res.Messages) {
					t.Fatalf("again: %+v", again)
				}
			}
			if n := runs.Load(); n != 1 {
				t.Fatalf("refund ran %d times", n)
			}
		})
	}
}

// TestRacingAnswersRunOnce: of answers given at once, exactly one runs.
func TestRacingAnswersRunOnce(t *testing.T) {
	for name, opener := range stores(t) {
		t.Run(name, func(t *testing.T) {
			open := opener()
			client, tk, runs, res := halted(t)
			var wg sync.WaitGroup
			var refused atomic.Int32
			for i := 0; i < 8; i++ {
				wg.Add(1)
				go func(s once.Store) {
					defer wg.Done()
					_, err := once.RunWithAnswer(context.Background(), s, client, tk, res.Messages, *res.Pending, core.Answer{ID: res.Pending.ID, Ok: true})
					if errors.Is(err, once.ErrAnswered) {
						refused.Add(1)
					} else if err != nil {
						t.Error(err)
					}
				}(open())
			}
			wg.Wait()
			if runs.Load() != 1 || refused.Load() != 7 {
				t.Fatalf("runs %d, refused %d", runs.Load(), refused.Load())
			}
		})
	}
}

// TestAMismatchedAnswerSpendsNothing: an answer that does not echo the
// request is refused before the store is asked, so the right one still runs.
func TestAMismatchedAnswerSpendsNothing(t *testing.T) {
	client, tk, runs, res := halted(t)
	s := once.NewMemoryStore()
	if _, err := once.RunWithAnswer(context.Background(), s, client, tk, res.Messages, *res.Pending, core.Answer{ID: "req_other", Ok: true}); !errors.Is(err, core.ErrCannotResume) || errors.Is(err, once.ErrAnswered) {
		t.Fatalf("err = %v", err)
	}
	if _, err := once.RunWithAnswer(context.Background(), s, client, tk, res.Messages, *res.Pending, core.Answer{ID: res.Pending.ID, Ok: true}); err != nil || runs.Load() != 1 {
		t.Fatalf("err = %v, runs %d", err, runs.Load())
	}
}

// TestPortClientRunsOnce: a program on the Go port's API (toolnexus) uses
// the same store with its own client and toolkit.
func TestPortClientRunsOnce(t *testing.T) {
	var runs atomic.Int32
	refund := toolnexus.RequireApproval(toolnexus.NativeTool("refund", "Refund an order", nil,
		func(context.Context, map[string]any) (string, error) { runs.Add(1); return "refunded", nil }))
	tk, err := toolnexus.CreateToolkit(context.Background(), toolnexus.Options{ExtraTools: []toolnexus.Tool{refund}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	client := toolnexus.CreateGenerateClient(refundModel, toolnexus.ClientOptions{Model: "local"})
	res, err := client.Run(context.Background(), "refund order 42", tk)
	if err != nil || res.Pending == nil {
		t.Fatalf("%v %+v", err, res)
	}
	s := once.NewMemoryStore()
	for i, want := range []error{nil, once.ErrAnswered} {
		_, err := once.RunWithAnswer(context.Background(), s, client, tk, res.Messages, *res.Pending, toolnexus.Answer{ID: res.Pending.ID, Ok: true})
		if !errors.Is(err, want) || (want == nil && err != nil) {
			t.Fatalf("answer %d: err = %v", i, err)
		}
	}
	if runs.Load() != 1 {
		t.Fatalf("refund ran %d times", runs.Load())
	}
}

// TestDirStoreErrors: a folder that cannot be made is an error that names it.
func TestDirStoreErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(file, "answers")
	if _, err := once.NewDirStore(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("err = %v", err)
	}
	if _, err := once.NewDirStore(""); err == nil {
		t.Fatal("an empty folder name was accepted")
	}
}
