package agents

import (
	"errors"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// TestSnapshotRestoreResume halts a three-level run, serializes it, drops
// the runtime, restores it with fresh tools and a fresh model (as a new
// process would) and resumes it to the end.
func TestSnapshotRestoreResume(t *testing.T) {
	cases := []struct {
		name    string
		answer  func(id string) core.Answer
		text    string
		refunds int
	}{
		{"approved", func(id string) core.Answer { return core.Answer{ID: id, Ok: true} }, "support: billing: refunded order 42", 1},
		{"declined", func(id string) core.Answer { return core.AnswerDeclined(id, "not today") }, "not today", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			first := newSupportTeam(t)
			res, rt := first.support.Run(first.options(), "review order 42")
			if res.Status != TaskStatusPending {
				t.Fatalf("status = %q, want pending", res.Status)
			}
			state, err := rt.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			rt.Close(rt.Root, nil)
			if got := gjson.GetBytes(state, "handles.1.pending.data.path").Raw; got != `["support","billing"]` {
				t.Errorf("snapshot path = %s", got)
			}

			second := newSupportTeam(t)
			opts := second.options()
			opts.Registry = second.support.Registry()
			rt2, err := RestoreRuntime(opts, state)
			if err != nil {
				t.Fatal(err)
			}
			defer rt2.Close(rt2.Root, nil)
			views := rt2.List()
			if len(views) != 2 || views[1].State != StateSuspended || strings.Join(views[1].Path, "/") != "support/billing" {
				t.Fatalf("restored tree = %+v", views)
			}
			got, err := rt2.Resume(tc.answer(res.Pending.ID))
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != TaskStatusDone || !strings.Contains(got.Text, tc.text) {
				t.Errorf("resumed = %q %q, want done containing %q", got.Status, got.Text, tc.text)
			}
			if second.refunds.count() != tc.refunds || first.refunds.count() != 0 {
				t.Errorf("refunds: restored %d (want %d), original %d (want 0)", second.refunds.count(), tc.refunds, first.refunds.count())
			}
			if second.model.callsFor("support") != 1 || second.model.callsFor("billing") != 1 {
				t.Errorf("restored model calls support=%d billing=%d, want 1 each (the halted turns continue)",
					second.model.callsFor("support"), second.model.callsFor("billing"))
			}
		})
	}
}

func TestRestoreRefusesBadSnapshots(t *testing.T) {
	st := newSupportTeam(t)
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusPending {
		t.Fatalf("status = %q", res.Status)
	}
	state, err := rt.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	onlySupport := Options{Generate: st.model.generate, Registry: map[string]Def{"support": st.support.Registry()["support"]}}
	for name, tc := range map[string]struct {
		opts  Options
		state string
		want  string
	}{
		"not json":      {st.options(), "nope", "not valid JSON"},
		"cut short":     {st.options(), string(state[:len(state)/2]), "not valid JSON"},
		"an array":      {st.options(), "[]", "not a JSON object"},
		"version":       {st.options(), `{"version":9}`, "version 9"},
		"unknown agent": {onlySupport, string(state), `agent "billing" is not in the registry`},
		"orphan":        {st.options(), `{"version":1,"handles":[{"id":"root/x.1","agent":"support","parent":"root/y.1","state":"idle"}]}`, "parent"},
		"bad state":     {func() Options { o := st.options(); o.Registry = st.support.Registry(); return o }(), `{"version":1,"handles":[{"id":"root/support.1","agent":"support","parent":"root","state":"running"}]}`, "cannot be restored"},
		"halt missing":  {func() Options { o := st.options(); o.Registry = st.support.Registry(); return o }(), `{"version":1,"handles":[{"id":"root/support.1","agent":"support","parent":"root","state":"suspended"}]}`, "without a halted turn"},
	} {
		t.Run(name, func(t *testing.T) {
			if tc.opts.Registry == nil {
				tc.opts.Registry = st.support.Registry()
			}
			_, err := RestoreRuntime(tc.opts, []byte(tc.state))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSnapshotRefusesRunningTurn(t *testing.T) {
	release := make(chan struct{})
	model := newFakeModel(nil)
	model.scripts = map[string]script{"slow": func([]map[string]any) core.GenerateResponse {
		<-release
		return core.GenerateResponse{Text: "done"}
	}}
	a := New("slow", Spec{Soul: "slow"})
	rt := NewRuntime(Options{Generate: model.generate, Registry: a.Registry()})
	h, err := rt.Spawn(rt.Root, "slow", nil)
	if err != nil {
		t.Fatal(err)
	}
	rt.Wake(h, "go")
	waitFor(t, func() bool { return model.callsFor("slow") == 1 })
	if _, err := rt.Snapshot(); !errors.Is(err, ErrBusy) {
		t.Errorf("err = %v, want ErrBusy", err)
	}
	close(release)
	if r := rt.Wait(h, 0); r.Status != TaskStatusDone {
		t.Errorf("status = %q", r.Status)
	}
	if _, err := rt.Snapshot(); err != nil {
		t.Errorf("settled tree: %v", err)
	}
	rt.Close(rt.Root, nil)
}

func TestResultsEncodeWithJSONKeys(t *testing.T) {
	st := newSupportTeam(t)
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	b, err := jsonx.Marshal(map[string]any{"result": res, "list": rt.List()})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"result.status": "pending", "result.pending.data.path.1": "billing", "result.turns": "1",
		"list.1.path.0": "support", "list.1.state": "suspended", "list.1.pendingKind": "approval",
	} {
		if got := gjson.GetBytes(b, path).String(); got != want {
			t.Errorf("%s = %q, want %q in %s", path, got, want, b)
		}
	}
}

// TestSnapshotKeepsInboxes: what waits in an inbox, and what the halted
// turn took from it, survive a restore.
func TestSnapshotKeepsInboxes(t *testing.T) {
	st := newSupportTeam(t)
	rt := NewRuntime(Options{Generate: st.model.generate, Registry: st.support.Registry()})
	h, _ := rt.Spawn(rt.Root, "support", nil)
	rt.Post(h, InboxItem{From: "root", Channel: "peer", Text: "taken by the turn"})
	rt.Wake(h, "review order 42")
	if r := rt.Wait(h, 0); r.Status != TaskStatusPending {
		t.Fatalf("status = %q", r.Status)
	}
	rt.Post(h, InboxItem{From: "external", Channel: "external", Text: "arrived while halted"})
	state, err := rt.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	rt.Close(rt.Root, nil)
	rt2, err := RestoreRuntime(Options{Generate: st.model.generate, Registry: st.support.Registry()}, state)
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close(rt2.Root, nil)
	top := rt2.Root.children[0]
	if rt2.InboxLen(top) != 1 {
		t.Errorf("inbox = %d, want 1", rt2.InboxLen(top))
	}
	rt2.Interrupt(top) // withdraw: the turn's drained item comes back first
	rt2.mu.Lock()
	got := []string{}
	for _, it := range top.inbox {
		got = append(got, it.Text)
	}
	rt2.mu.Unlock()
	if strings.Join(got, "|") != "taken by the turn|arrived while halted" {
		t.Errorf("inbox after withdraw = %q", got)
	}
}
