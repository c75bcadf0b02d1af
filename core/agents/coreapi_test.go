package agents

// The tests of what coreapi.go adapts (core's hook shapes).

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
)

func TestGuardrailDeniesFirst(t *testing.T) {
	st := newSupportTeam(t)
	var hookRan bool
	st.billing.Spec.Guardrails = []Guardrail{
		func(core.BeforeToolEvent) string { return "allow" },
		func(ev core.BeforeToolEvent) string {
			if ev.Name == "refund" && ev.Args["order"] == float64(42) {
				return "order 42 is under review"
			}
			return ""
		},
	}
	st.billing.Spec.Hooks = &core.Hooks{BeforeTool: func(context.Context, core.BeforeToolEvent) (*core.ToolOverride, error) {
		hookRan = true
		return nil, nil
	}}
	res, rt := st.support.Run(st.options(), "review order 42")
	defer rt.Close(rt.Root, nil)
	if res.Status != TaskStatusDone || !strings.Contains(res.Text, "denied: order 42 is under review") {
		t.Errorf("result = %+v, want billing's report of the denial", res)
	}
	if hookRan || st.refunds.count() != 0 {
		t.Errorf("hook ran %v, refunds %d: a denial must stop both", hookRan, st.refunds.count())
	}
}

// TestTeamApprovalRules: the runtime's rules reach its agents, a rule may
// name the asking agent, a guardrail is a rule the record names, and each
// decision reaches OnDecision with the agent's path (issue 32).
func TestTeamApprovalRules(t *testing.T) {
	cases := []struct {
		name, rules string
		guard       bool
		want        string // the record's one entry
		refunds     int
	}{
		{"allowed for billing", `[{"tool": "refund", "agent": "support/billing", "decision": "allow"}]`, false, "allowed by rule 1 at support/billing", 1},
		{"a rule for another agent", `[{"tool": "refund", "agent": "sales", "decision": "allow"}]`, false, "", 0},
		{"denied", `[{"name": "no refunds", "tool": "refund", "agent": "billing", "decision": "deny", "reason": "not today"}]`, false, "denied by no refunds at support/billing", 0},
		{"a guardrail comes first", `[{"tool": "refund", "decision": "allow"}]`, true, "denied by guardrail 1 of billing at support/billing", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := newSupportTeam(t)
			if tc.guard {
				st.billing.Spec.Guardrails = []Guardrail{func(core.BeforeToolEvent) string { return "under review" }}
			}
			rules, err := approval.Parse([]byte(tc.rules))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			opts := st.options()
			opts.Approvals = &approval.Policy{Rules: rules, OnDecision: func(e approval.Entry) {
				got = append(got, e.Decision+" by "+e.Rule+" at "+strings.Join(e.Path, "/"))
			}}
			res, rt := st.support.Run(opts, "review order 42")
			defer rt.Close(rt.Root, nil)
			if tc.want == "" {
				if res.Status != TaskStatusPending || len(got) != 0 {
					t.Fatalf("status %s, record %v: want a halt for approval", res.Status, got)
				}
				return
			}
			if len(got) != 1 || got[0] != tc.want || st.refunds.count() != tc.refunds {
				t.Fatalf("record %v, %d refunds; want [%s], %d", got, st.refunds.count(), tc.want, tc.refunds)
			}
		})
	}
}
