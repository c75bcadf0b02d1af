package agents

import (
	"testing"
	"time"
)

// Every verb answers a nil *Handle with a refusal or a zero value, never a
// nil dereference (under js/wasm a panic ends the whole instance).
func TestVerbsRefuseANilHandle(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close(rt.Root, nil)
	var h *Handle
	checks := []struct {
		verb string
		ok   func() bool
	}{
		{"Post", func() bool { return rt.Post(h, InboxItem{Text: "x"}).Err == errNilHandle }},
		{"Wake", func() bool { return rt.Wake(h, "go").Err == errNilHandle }},
		{"Wait", func() bool {
			r := rt.Wait(h, time.Millisecond)
			return r.IsError && r.Status == TaskStatusError
		}},
		{"Interrupt", func() bool { rt.Interrupt(h); return true }},
		{"Close", func() bool { rt.Close(h, &CloseOptions{Force: true}); return true }},
		{"Inspect", func() bool { return rt.Inspect(h).ID == "" }},
		{"StateOf", func() bool { return rt.StateOf(h) == StateClosed }},
		{"InboxLen", func() bool { return rt.InboxLen(h) == 0 }},
		{"PoolTokens", func() bool { return rt.PoolTokens(h) == 0 }},
		{"UsageTokens", func() bool { return rt.UsageTokens(h) == 0 }},
		{"Spawn", func() bool { _, err := rt.Spawn(h, "nobody", nil); return err != nil }},
	}
	for _, c := range checks {
		t.Run(c.verb, func(t *testing.T) {
			if !c.ok() {
				t.Fatalf("%s on a nil handle: unexpected answer", c.verb)
			}
		})
	}
}
