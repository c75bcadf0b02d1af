package agents

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
)

// looper calls noop forever; every model call costs 10 tokens.
func looperRuntime(t *testing.T, budget *Budget) (*Runtime, *Handle) {
	t.Helper()
	model := newFakeModel(nil)
	model.scripts = map[string]script{"looper": func([]map[string]any) core.GenerateResponse { return model.toolCall("noop", "{}") }}
	noop := core.NativeTool("noop", "does nothing", nil, func(context.Context, map[string]any) (string, error) { return "ok", nil })
	a := New("looper", Spec{Soul: "looper", Tools: []core.Tool{noop}, Budget: budget})
	rt := NewRuntime(Options{Generate: model.generate, Registry: a.Registry()})
	h, err := rt.Spawn(rt.Root, "looper", nil)
	if err != nil {
		t.Fatal(err)
	}
	return rt, h
}

func TestBudgetExhaustedIsIncomplete(t *testing.T) {
	cases := []struct {
		name   string
		budget Budget
		limit  string
		turns  int
	}{
		{"tokens", Budget{MaxTokens: 25}, LimitMaxTokens, 3},
		{"toolCalls", Budget{MaxToolCalls: 2}, LimitMaxToolCalls, 2},
		{"turns", Budget{MaxTurns: 4}, LimitMaxTurns, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rt, h := looperRuntime(t, &tc.budget)
			defer rt.Close(rt.Root, nil)
			rt.Wake(h, "loop")
			r := rt.Wait(h, 0)
			if r.Status != TaskStatusIncomplete || r.Limit != tc.limit || !r.IsError {
				t.Fatalf("result = %+v, want incomplete with limit %s", r, tc.limit)
			}
			if r.Turns != tc.turns {
				t.Errorf("turns = %d, want %d", r.Turns, tc.turns)
			}
			if rt.StateOf(h) != StateIdle {
				t.Errorf("state = %s, want idle (a budget stop is not a crash)", rt.StateOf(h))
			}
			// The next wake is refused up front, loudly, through Wait.
			if tc.limit != LimitMaxTurns {
				rt.Wake(h, "again")
				if r := rt.Wait(h, 0); r.Status != TaskStatusIncomplete || r.Limit != tc.limit || r.Turns != tc.turns {
					t.Errorf("second wake = %+v, want an immediate incomplete with no new turn", r)
				}
			}
		})
	}
}

func TestBudgetCarveAndSpawnChecks(t *testing.T) {
	st := newSupportTeam(t)
	rt := NewRuntime(Options{Generate: st.model.generate, Registry: st.support.Registry()})
	defer rt.Close(rt.Root, nil)
	p, err := rt.Spawn(rt.Root, "support", &Budget{MaxTokens: 100, MaxChildren: 1, MaxDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	kid, err := rt.Spawn(p, "billing", &Budget{MaxTokens: 500})
	if err != nil {
		t.Fatal(err)
	}
	if got := rt.PoolTokens(kid); got != 100 {
		t.Errorf("carved pool = %d, want min(500, 100) = 100", got)
	}
	var le *LimitError
	if _, err := rt.Spawn(p, "billing", nil); !errors.As(err, &le) || le.Limit != LimitMaxChildren {
		t.Errorf("second child: err = %v, want LimitError maxChildren", err)
	}
	if _, err := rt.Spawn(kid, "billing", nil); err == nil || !strings.Contains(err.Error(), "maxDepth") {
		t.Errorf("too deep: err = %v, want maxDepth", err)
	}
	if _, err := rt.Spawn(p, "nobody", nil); err == nil || !strings.Contains(err.Error(), "unknown agent") {
		t.Errorf("unknown: err = %v", err)
	}
}

func TestExhaustedParentCannotDelegate(t *testing.T) {
	st := newSupportTeam(t)
	st.support.Spec.Budget = &Budget{MaxTokens: 10} // one model call
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusIncomplete || res.Limit != LimitMaxTokens {
		t.Fatalf("result = %+v, want incomplete maxTokens", res)
	}
	if len(rt.List()) != 1 {
		t.Errorf("handles = %+v, want no billing spawned from an exhausted pool", rt.List())
	}
}

// fakeClock is a virtual clock that moves only when told to.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestMaxWallOnTheRuntimeClock(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_000_000, 0)}
	spawned := 0
	model := newFakeModel(map[string]script{"w": func([]map[string]any) core.GenerateResponse { return core.GenerateResponse{Text: "ok"} }})
	a := New("w", Spec{Soul: "w", Budget: &Budget{MaxWall: time.Minute}, OnSpawn: func(*Handle) { spawned++ }})
	rt := NewRuntime(Options{Generate: model.generate, Registry: a.Registry(), Clock: clock})
	defer rt.Close(rt.Root, nil)
	h, err := rt.Spawn(rt.Root, "w", nil)
	if err != nil {
		t.Fatal(err)
	}
	rt.Wake(h, "now")
	if r := rt.Wait(h, 0); r.Status != TaskStatusDone {
		t.Fatalf("within the wall: %+v", r)
	}
	clock.advance(2 * time.Minute)
	rt.Wake(h, "later")
	if r := rt.Wait(h, 0); r.Status != TaskStatusIncomplete || r.Limit != LimitMaxWallMs {
		t.Errorf("past the wall: %+v, want incomplete maxWallMs", r)
	}
	if spawned != 1 || model.callsFor("w") != 1 {
		t.Errorf("OnSpawn ran %d times, model %d calls; want 1 and 1", spawned, model.callsFor("w"))
	}
}

// TestBudgetAtTurnStartLetsAnAdmittedTurnFinish: with BudgetAtTurnStart
// a turn admitted within its pool runs to its MaxTurns even though it
// overspends; the next turn is refused at the start. By default the same
// turn stops at the model call that finds the pool dry.
func TestBudgetAtTurnStartLetsAnAdmittedTurnFinish(t *testing.T) {
	cases := []struct {
		name        string
		atTurnStart bool
		limit       string
		turns       int
	}{
		{"every model call", false, LimitMaxTokens, 3},
		{"turn start only", true, LimitMaxTurns, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			model := newFakeModel(nil)
			model.scripts = map[string]script{"looper": func([]map[string]any) core.GenerateResponse { return model.toolCall("noop", "{}") }}
			noop := core.NativeTool("noop", "does nothing", nil, func(context.Context, map[string]any) (string, error) { return "ok", nil })
			a := New("looper", Spec{Soul: "looper", Tools: []core.Tool{noop}, Budget: &Budget{MaxTokens: 25, MaxTurns: 6}})
			rt := NewRuntime(Options{Generate: model.generate, Registry: a.Registry(), BudgetAtTurnStart: tc.atTurnStart})
			defer rt.Close(rt.Root, nil)
			h, err := rt.Spawn(rt.Root, "looper", nil)
			if err != nil {
				t.Fatal(err)
			}
			r := rt.RunTurn(h, "loop")
			if r.Status != TaskStatusIncomplete || r.Limit != tc.limit || r.Turns != tc.turns {
				t.Fatalf("result = %+v, want incomplete at %s after %d turns", r, tc.limit, tc.turns)
			}
			if r := rt.RunTurn(h, "again"); r.Limit != LimitMaxTokens || r.Turns != tc.turns {
				t.Errorf("next turn = %+v, want refused at the start (maxTokens)", r)
			}
		})
	}
}
