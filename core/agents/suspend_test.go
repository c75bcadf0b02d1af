package agents

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
)

func TestInlineAnswerAtNearestInterpreter(t *testing.T) {
	cases := []struct {
		name      string
		who       string // the interpreter that must answer
		configure func(st *supportTeam, opts *Options, asked *[]string)
	}{
		{"own", "billing", func(st *supportTeam, _ *Options, asked *[]string) {
			st.billing.Spec.WaitFor = answerer("billing", asked)
			st.support.Spec.WaitFor = answerer("support", asked)
		}},
		{"ancestor", "support", func(st *supportTeam, opts *Options, asked *[]string) {
			st.support.Spec.WaitFor = answerer("support", asked)
			opts.WaitFor = answerer("runtime", asked)
		}},
		{"runtime", "runtime", func(st *supportTeam, opts *Options, asked *[]string) {
			opts.WaitFor = answerer("runtime", asked)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := newSupportTeam(t)
			opts := st.options()
			var asked []string
			tc.configure(st, &opts, &asked)
			res, rt := st.support.Run(opts, "review order 42")
			defer rt.Close(rt.Root, nil)
			if res.Status != TaskStatusDone {
				t.Fatalf("status = %q (%s), want done", res.Status, res.Text)
			}
			if want := []string{tc.who + " support/billing/refund"}; strings.Join(asked, ",") != strings.Join(want, ",") {
				t.Errorf("asked = %v, want %v", asked, want)
			}
			if st.refunds.count() != 1 {
				t.Errorf("refund ran %d times, want 1", st.refunds.count())
			}
			if !strings.Contains(res.Text, "support: billing: refunded order 42") {
				t.Errorf("text = %q", res.Text)
			}
		})
	}
}

// answerer approves and records who was asked, with the asking path.
func answerer(who string, asked *[]string) func(core.Request) (core.Answer, error) {
	return func(req core.Request) (core.Answer, error) {
		tool, _ := req.Data["tool"].(string)
		*asked = append(*asked, who+" "+strings.Join(PathOf(req), "/")+"/"+tool)
		return core.Answer{ID: req.ID, Ok: true}, nil
	}
}

func TestDurableHaltCarriesLeafPath(t *testing.T) {
	st := newSupportTeam(t)
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusPending || res.Pending == nil {
		t.Fatalf("status = %q, want pending with a request", res.Status)
	}
	if got := pathString(res.Pending); got != "support/billing" {
		t.Errorf("path = %q, want support/billing", got)
	}
	if res.Pending.Kind != core.KindApproval || res.Pending.Data["tool"] != "refund" {
		t.Errorf("request = %+v, want an approval of refund", *res.Pending)
	}
	if !strings.HasPrefix(res.Pending.Data["handle"].(string), "root/support.1/billing.") {
		t.Errorf("handle = %v", res.Pending.Data["handle"])
	}
	if st.refunds.count() != 0 {
		t.Error("refund ran before approval")
	}
	for _, v := range rt.List() {
		if v.State != StateSuspended {
			t.Errorf("%s is %s, want suspended", v.ID, v.State)
		}
	}
	// A suspended agent takes posts and wakes but runs only on its Answer.
	leaf := rt.Root.children[0].children[0]
	calls := st.model.callsFor("billing")
	if p, w := rt.Post(leaf, InboxItem{From: "root", Channel: "peer", Text: "fyi"}), rt.Wake(leaf, "hurry"); !p.Ok || !w.Ok {
		t.Errorf("post %+v, wake %+v on a suspended agent", p, w)
	}
	if rt.StateOf(leaf) != StateSuspended || st.model.callsFor("billing") != calls || rt.InboxLen(leaf) != 1 {
		t.Errorf("after wake: %+v, %d model calls (was %d)", rt.Inspect(leaf), st.model.callsFor("billing"), calls)
	}
}

func TestResumeReachesDeepestLeaf(t *testing.T) {
	st := newSupportTeam(t)
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusPending {
		t.Fatalf("status = %q, want pending", res.Status)
	}
	if _, err := rt.Resume(core.Answer{ID: "wrong", Ok: true}); !errors.Is(err, core.ErrCannotResume) {
		t.Errorf("a wrong id: err = %v, want ErrCannotResume", err)
	}
	supportCalls, billingCalls := st.model.callsFor("support"), st.model.callsFor("billing")
	got, err := rt.Resume(core.Answer{ID: res.Pending.ID, Ok: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != TaskStatusDone || got.Text != "support: billing: refunded order 42" {
		t.Fatalf("resumed = %+v", got)
	}
	if st.refunds.count() != 1 {
		t.Errorf("refund ran %d times, want 1", st.refunds.count())
	}
	// Each level continues its halted turn: one more model call apiece.
	if d := st.model.callsFor("billing") - billingCalls; d != 1 {
		t.Errorf("billing made %d model calls on resume, want 1", d)
	}
	if d := st.model.callsFor("support") - supportCalls; d != 1 {
		t.Errorf("support made %d model calls on resume, want 1", d)
	}
	billings := 0
	for _, v := range rt.List() {
		if v.Agent == "billing" {
			billings++
		}
	}
	if billings != 1 {
		t.Errorf("%d billing handles, want 1 (the task call re-attaches)", billings)
	}
	if _, err := rt.Resume(core.Answer{ID: res.Pending.ID, Ok: true}); !errors.Is(err, ErrNotSuspended) {
		t.Errorf("second resume: err = %v, want ErrNotSuspended", err)
	}
}

func TestDeclineIsRecoveredBySubAgent(t *testing.T) {
	st := newSupportTeam(t)
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	got, err := rt.Resume(core.AnswerDeclined(res.Pending.ID, "over the refund limit"))
	if err != nil {
		t.Fatal(err)
	}
	if st.refunds.count() != 0 {
		t.Error("a declined refund ran")
	}
	if got.Status != TaskStatusDone {
		t.Fatalf("status = %q, want done", got.Status)
	}
	if !strings.HasPrefix(got.Text, "support: billing: ") || !strings.Contains(got.Text, "over the refund limit") {
		t.Errorf("text = %q, want billing's report of the refusal inside support's answer", got.Text)
	}
}
