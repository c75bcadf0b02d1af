package agents

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
)

// haltedSnapshot is a support › billing tree halted on billing's refund.
func haltedSnapshot(t *testing.T) []byte {
	t.Helper()
	st := newSupportTeam(t)
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusPending {
		t.Fatalf("status = %q, want pending", res.Status)
	}
	state, err := rt.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return state
}

func restoreOptions(t *testing.T) Options {
	st := newSupportTeam(t)
	opts := st.options()
	opts.Registry = st.support.Registry()
	return opts
}

// TestRestoreRefusesEditedSnapshots: every edit a snapshot can only get by
// hand is an error naming what is wrong, never a runtime that hangs (a zero
// maxConcurrent queues every wake forever) or a tree Handle cannot walk.
func TestRestoreRefusesEditedSnapshots(t *testing.T) {
	handle := func(fields string) string {
		return `{"version":1,"handles":[{"id":"root/support.1","agent":"support","parent":"root","state":"idle",` +
			`"maxTurns":6,"maxConcurrent":8,"maxDepth":3` + fields + `}]}`
	}
	for _, tc := range []struct{ name, state, want string }{
		{"handles not an array", `{"version":1,"handles":{"a":1}}`, "handles that are not an array"},
		{"negative rootSeq", `{"version":1,"rootSeq":-1,"handles":[]}`, "a negative rootSeq"},
		{"id outside its parent", strings.Replace(handle(""), `"id":"root/support.1"`, `"id":"other/support.1"`, 1), "edited or corrupt"},
		{"id two segments down", strings.Replace(handle(""), `"id":"root/support.1"`, `"id":"root/a.1/support.1"`, 1), "edited or corrupt"},
		{"id is the parent's", strings.Replace(handle(""), `"id":"root/support.1"`, `"id":"root/"`, 1), "edited or corrupt"},
		{"duplicate id", `{"version":1,"handles":[` + handle("")[len(`{"version":1,"handles":[`):len(handle(""))-2] + `,` +
			handle("")[len(`{"version":1,"handles":[`):len(handle(""))-2] + `]}`, "edited or corrupt"},
		{"zero maxConcurrent", strings.Replace(handle(""), `"maxConcurrent":8`, `"maxConcurrent":0`, 1), "edited or corrupt"},
		{"missing maxTurns", strings.Replace(handle(""), `"maxTurns":6,`, ``, 1), "edited or corrupt"},
		{"negative maxDepth", strings.Replace(handle(""), `"maxDepth":3`, `"maxDepth":-2`, 1), "edited or corrupt"},
		{"huge maxWallMs", handle(`,"maxWallMs":9223372036854775807`), "edited or corrupt"},
		{"negative seq", handle(`,"seq":-4`), "edited or corrupt"},
		{"string where a number goes", handle(`,"turns":"many"`), "turns"},
		{"inbox of numbers", handle(`,"inbox":[1,2]`), "inbox"},
		{"request not an object", handle(`,"pending":"refund"`), "pending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, err := RestoreRuntime(restoreOptions(t), []byte(tc.state))
			if err == nil {
				rt.Close(rt.Root, nil)
				t.Fatalf("restored %s; want an error containing %q", tc.state, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestRestoreSurvivesMangledBytes cuts and corrupts a real snapshot at
// every position: each must restore with an error or give a runtime whose
// verbs all return (no panic — under js/wasm a panic ends the module).
func TestRestoreSurvivesMangledBytes(t *testing.T) {
	state := haltedSnapshot(t)
	pendingID := gjson.GetBytes(state, "handles.1.pending.id").String()
	if pendingID == "" {
		t.Fatalf("no pending id in %s", state)
	}
	var inputs [][]byte
	for i := 0; i < len(state); i += 7 {
		inputs = append(inputs, state[:i])
		flipped := bytes.Clone(state)
		flipped[i] = "{}[]\",:0x"[i%9]
		inputs = append(inputs, flipped)
	}
	inputs = append(inputs, nil, []byte("null"), []byte(`{"version":1}`), []byte(strings.Repeat("[", 100000)))
	restored := 0
	for i, in := range inputs {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("input %d (%q…) panicked: %v", i, clip(in), p)
				}
			}()
			rt, err := RestoreRuntime(restoreOptions(t), in)
			if err != nil {
				return
			}
			restored++
			for _, v := range rt.List() {
				if h, ok := rt.Handle(v.ID); ok {
					rt.Inspect(h)
				}
			}
			_, _ = rt.Resume(core.Answer{ID: pendingID, Ok: true})
			_, _ = rt.Snapshot()
			rt.Close(rt.Root, &CloseOptions{Force: true})
		}()
	}
	if restored == 0 {
		t.Error("no mangled snapshot restored at all: the test exercises only the parser")
	}
	t.Logf("%d inputs, %d restored", len(inputs), restored)
}

func clip(b []byte) string {
	if len(b) > 40 {
		return fmt.Sprintf("%s", b[:40])
	}
	return string(b)
}

// FuzzRestoreRuntime: no bytes make RestoreRuntime, or the verbs of what it
// restores, panic. (Under js/wasm the seeds run as a test.)
func FuzzRestoreRuntime(f *testing.F) {
	st := newSupportTeam(f)
	res, rt := st.support.Run(st.options(), "review order 42")
	if res.Status == TaskStatusPending {
		if state, err := rt.Snapshot(); err == nil {
			f.Add(state)
		}
	}
	rt.Close(rt.Root, nil)
	f.Add([]byte(`{"version":1,"rootSeq":2,"handles":[{"id":"root/support.1","agent":"support","parent":"root","state":"idle","maxTurns":1,"maxConcurrent":1,"maxDepth":1}]}`))
	f.Add([]byte(`{"version":1,"handles":[{"id":"root/billing.1","agent":"billing","parent":"root","state":"suspended","maxTurns":1,"maxConcurrent":1,"maxDepth":1,"halt":{"messages":[{}],"request":{"id":"r"}}}]}`))
	f.Fuzz(func(t *testing.T, state []byte) {
		st := newSupportTeam(t)
		opts := st.options()
		opts.Registry = st.support.Registry()
		rt, err := RestoreRuntime(opts, state)
		if err != nil {
			return
		}
		for _, v := range rt.List() {
			if h, ok := rt.Handle(v.ID); ok {
				rt.Inspect(h)
			}
		}
		_, _ = rt.Resume(core.Answer{ID: "r", Ok: true})
		_, _ = rt.Snapshot()
		rt.Close(rt.Root, &CloseOptions{Force: true})
	})
}
