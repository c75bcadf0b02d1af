package agents

import (
	"runtime"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// TestNoGoroutineLeftBehind runs the suspension flows — inline answer,
// halt then resume, halt then close, snapshot and restore — and checks
// that closing the runtimes leaves no goroutine running.
func TestNoGoroutineLeftBehind(t *testing.T) {
	base := runtime.NumGoroutine()
	for i := 0; i < 3; i++ {
		st := newSupportTeam(t)
		opts := st.options()
		opts.WaitFor = func(r core.Request) (core.Answer, error) { return core.Answer{ID: r.ID, Ok: true}, nil }
		if res, rt := st.support.Run(opts, "inline"); res.Status != TaskStatusDone {
			t.Fatalf("inline: %+v", res)
		} else {
			rt.Close(rt.Root, nil)
		}

		res, rt := st.support.Run(st.options(), "halt")
		state, err := rt.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rt.Resume(core.Answer{ID: res.Pending.ID, Ok: true}); err != nil {
			t.Fatal(err)
		}
		rt.Close(rt.Root, nil)

		opts = st.options()
		opts.Registry = st.support.Registry()
		rt2, err := RestoreRuntime(opts, state)
		if err != nil {
			t.Fatal(err)
		}
		rt2.Close(rt2.Root, nil) // closing a halted tree
	}
	if n := settledGoroutines(base); n > base {
		t.Errorf("goroutines: %d after, %d before", n, base)
	}
}

func TestPanicsBecomeResults(t *testing.T) {
	model := newFakeModel(nil)
	model.scripts = map[string]script{"p": model.callThenReport("boom", "{}", "p: ")}
	boom := core.Tool{Name: "boom", Description: "panics", InputSchema: core.JSONSchema{"type": "object"}, Source: core.SourceCustom,
		Execute: func(map[string]any, *core.ToolContext) (core.ToolResult, error) { panic("kaboom") }}
	opts := Options{Generate: model.generate, OnEvent: func(Event) { panic("observer") }}

	// A tool's panic is core's to turn into an error result the model reads.
	res, rt := New("p", Spec{Soul: "p", Tools: []core.Tool{boom}}).Run(opts, "go")
	rt.Close(rt.Root, nil)
	if res.Status != TaskStatusDone || !strings.Contains(res.Text, "kaboom") {
		t.Errorf("tool panic: %+v", res)
	}
	// A panic in the agent's own callbacks ends the turn with an error.
	verify := &Completion{MaxAttempts: 1, Verify: func(core.RunResult) (bool, string) { panic("verifier") }}
	res, rt = New("p", Spec{Soul: "p", Tools: []core.Tool{boom}, Completion: verify}).Run(opts, "go")
	rt.Close(rt.Root, nil)
	if res.Status != TaskStatusError || !strings.Contains(res.Text, "panic") || !strings.Contains(res.Text, "verifier") {
		t.Errorf("callback panic: %+v", res)
	}
}
