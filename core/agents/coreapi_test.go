package agents

// The tests of what coreapi.go adapts (core's hook shapes).

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
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
