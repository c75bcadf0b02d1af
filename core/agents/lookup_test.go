package agents

import (
	"testing"
)

// TestHandleLookupOnARestoredRuntime restores a halted support › billing
// tree and drives it by id alone: the ids a host kept are enough to
// inspect, interrupt and wait.
func TestHandleLookupOnARestoredRuntime(t *testing.T) {
	first := newSupportTeam(t)
	res, rt := first.support.Run(first.options(), "review order 42")
	if res.Status != TaskStatusPending {
		t.Fatalf("status = %q, want pending", res.Status)
	}
	state, err := rt.Snapshot()
	rt.Close(rt.Root, nil)
	if err != nil {
		t.Fatal(err)
	}
	second := newSupportTeam(t)
	opts := second.options()
	opts.Registry = second.support.Registry()
	rt2, err := RestoreRuntime(opts, state)
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close(rt2.Root, nil)

	for _, tc := range []struct {
		id    string
		found bool
		state State
	}{
		{"root", true, StateIdle},
		{"root/support.1", true, StateSuspended},
		{"root/support.1/billing.1", true, StateSuspended},
		{"root/support.1/billing.2", false, ""},
		{"root/support.10", false, ""},
		{"root/support", false, ""},
		{"root/support.1/", false, ""},
		{"", false, ""},
		{"support.1", false, ""},
		{"root/support.1/billing.1/x.1", false, ""},
	} {
		h, ok := rt2.Handle(tc.id)
		if ok != tc.found {
			t.Errorf("Handle(%q) found = %v, want %v", tc.id, ok, tc.found)
			continue
		}
		if !ok {
			if h != nil {
				t.Errorf("Handle(%q) = %v with false, want nil", tc.id, h.ID)
			}
			continue
		}
		if h.ID != tc.id || rt2.StateOf(h) != tc.state {
			t.Errorf("Handle(%q) = %s in %s, want %s", tc.id, h.ID, rt2.StateOf(h), tc.state)
		}
	}

	billing, _ := rt2.Handle("root/support.1/billing.1")
	if v := rt2.Inspect(billing); v.PendingKind == "" || v.Agent != "billing" {
		t.Errorf("inspect by id = %+v, want billing's pending row", v)
	}
	// Interrupt withdraws the restored halt; Wait then reports it.
	rt2.Interrupt(billing)
	if r := rt2.Wait(billing, 0); r.Status != TaskStatusInterrupted {
		t.Errorf("wait after interrupt = %+v, want interrupted", r)
	}
	if st := rt2.StateOf(billing); st != StateIdle {
		t.Errorf("billing is %s after interrupt, want idle", st)
	}
	// A closed handle is still found: its last result stays readable.
	rt2.Close(billing, nil)
	if h, ok := rt2.Handle(billing.ID); !ok || rt2.StateOf(h) != StateClosed {
		t.Errorf("closed handle lookup = %v, %v", h, ok)
	}
}

// TestHandleLookupFindsSpawnedHandles covers a live (not restored) tree,
// where ids with a common prefix sit side by side.
func TestHandleLookupFindsSpawnedHandles(t *testing.T) {
	rt, h, _ := echoRuntime(t, nil, Options{})
	defer rt.Close(rt.Root, nil)
	var last *Handle
	for i := 0; i < 10; i++ {
		var err error
		if last, err = rt.Spawn(rt.Root, "echo", nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []*Handle{h, last} {
		if got, ok := rt.Handle(want.ID); !ok || got != want {
			t.Errorf("Handle(%q) = %v, %v", want.ID, got, ok)
		}
	}
	if last.ID != "root/echo.11" {
		t.Fatalf("id = %q, want root/echo.11", last.ID)
	}
}
