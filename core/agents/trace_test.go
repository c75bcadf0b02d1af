package agents

import (
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// TestTraceNamesEveryTransitionOfAHaltAndResume drives the support ›
// billing team through a halt and a Resume and checks that OnTrace saw
// each step in the shared trace vocabulary.
func TestTraceNamesEveryTransitionOfAHaltAndResume(t *testing.T) {
	team := newSupportTeam(t)
	var mu sync.Mutex
	var lines []string
	opts := team.options()
	opts.OnTrace = func(l string) { mu.Lock(); lines = append(lines, l); mu.Unlock() }
	res, rt := team.support.Run(opts, "review order 42")
	if res.Status != TaskStatusPending {
		t.Fatalf("status = %q, want pending", res.Status)
	}
	if _, err := rt.Resume(core.Answer{ID: res.Pending.ID, Ok: true}); err != nil {
		t.Fatal(err)
	}
	rt.Close(rt.Root, nil)
	mu.Lock()
	all := strings.Join(lines, "\n")
	mu.Unlock()
	for _, want := range []string{
		"root/support.1: spawned (depth 1, tokens Infinity)",
		"root/support.1: idle→running (wake)",
		"root/support.1/billing.1: running→suspended DURABLE",
		"root/support.1/billing.1: suspended→idle (resume with Answer(ok=true) at checkpoint",
		"root/support.1: suspended→idle (cascade resume; task reattaches)",
		"root/support.1: task replay → REATTACH to root/support.1/billing.1",
		"root/support.1: running→idle (done, turns=",
		"root/support.1: →closed (closed)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("trace lacks %q\ntrace:\n%s", want, all)
		}
	}
}

// TestTraceOffCostsNothing: without OnTrace the runtime formats no lines
// (and a run behaves as before).
func TestTraceOffCostsNothing(t *testing.T) {
	team := newSupportTeam(t)
	res, rt := team.support.Run(team.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusPending {
		t.Fatalf("status = %q, want pending", res.Status)
	}
	allocs := testing.AllocsPerRun(100, func() { rt.tracef("%s: %d", "x", 1) })
	if allocs != 0 {
		t.Errorf("tracef allocated %v times with OnTrace nil", allocs)
	}
}
