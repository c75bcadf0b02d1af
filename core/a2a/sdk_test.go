package a2a_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/core/tool"
)

// TestAgainstTheA2ASDK calls an agent built with the official A2A
// JavaScript SDK (tests/a2a-server.mjs), natively over net/http:
// tests/a2a.test.mjs starts it and runs this test with its card's URL in
// TOOLNEXUS_A2A_CARD. Skipped without it.
func TestAgainstTheA2ASDK(t *testing.T) {
	cardURL := os.Getenv("TOOLNEXUS_A2A_CARD")
	if cardURL == "" {
		t.Skip("TOOLNEXUS_A2A_CARD is not set (tests/a2a.test.mjs sets it)")
	}
	agents, err := a2a.Parse([]byte(`{"agents": {"desk": {"card": "` + cardURL + `", "pollEvery": 20, "timeout": 20000}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tools, status := a2a.Tools(context.Background(), agents, tool.A2AEnv{})
	if st := status["desk"]; st.Status != tool.MCPConnected || st.Tools != 2 || st.Card != "billing desk" {
		t.Fatalf("status %+v", st)
	}
	refund, statusTool := toolNamed(t, tools, "billing_desk_refund"), toolNamed(t, tools, "billing_desk_status")

	if res := run(statusTool, "where is order 7", nil); res.IsError || res.Output != "order status: shipped" || res.Metadata["state"] != "completed" {
		t.Fatalf("status: %+v", res)
	}
	if res := run(statusTool, "break it", nil); !res.IsError || !strings.Contains(res.Output, "failed: the ledger is offline") {
		t.Fatalf("failed task: %+v", res)
	}
	first := run(refund, "refund order 42", nil)
	req := tool.PendingOf(first)
	if req == nil || req.Kind != tool.KindInput || !strings.Contains(req.Prompt, "Refund order 42 for $30?") {
		t.Fatalf("input-required: %+v", first)
	}
	if res := run(refund, "refund order 42", &tool.Answer{ID: req.ID, Ok: true, Data: map[string]any{"reply": "yes"}}); res.IsError || res.Output != "refunded order 42 (reply: yes)" {
		t.Fatalf("answered: %+v", res)
	}
	req = tool.PendingOf(run(refund, "refund order 43", nil))
	if res := run(refund, "refund order 43", &tool.Answer{ID: req.ID, Reason: "not this one"}); !res.IsError ||
		!strings.Contains(res.Output, "declined: not this one") || !strings.Contains(res.Output, "was cancelled") || res.Metadata["state"] != "canceled" {
		t.Fatalf("declined: %+v", res)
	}
}
