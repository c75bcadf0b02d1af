package toolnexus

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core/approval"
)

// TestApprovalRulesThroughThePortsAPI: core's approval rules and record
// reach a toolkit made with the port's CreateToolkit (Options.Approvals).
func TestApprovalRulesThroughThePortsAPI(t *testing.T) {
	ctx := context.Background()
	rules, err := approval.Parse([]byte(`[{"tool": "refund", "when": [{"path": "order", "op": "==", "value": "42"}], "decision": "deny", "reason": "order 42 is under review"},
	 {"tool": "refund", "decision": "allow"}]`))
	if err != nil {
		t.Fatal(err)
	}
	var log approval.Log
	refunds := 0
	refund := RequireApproval(NativeTool("refund", "Refund an order", nil, func(ctx context.Context, args map[string]any) (string, error) {
		refunds++
		return fmt.Sprintf("refunded order %v", args["order"]), nil
	}))
	tk, err := CreateToolkit(ctx, Options{ExtraTools: []Tool{refund}, Approvals: &approval.Policy{Rules: rules, OnDecision: func(e approval.Entry) { log.Add(e) }}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	client := CreateInProcessClient(InProcessOptions{Model: "local", Generate: func(req InProcessRequest) (InProcessResponse, error) {
		last, _ := req.Messages[len(req.Messages)-1].(map[string]any)
		if last["role"] == "tool" {
			return InProcessResponse{Content: fmt.Sprint("The tool said: ", last["content"])}, nil
		}
		order := strings.TrimPrefix(fmt.Sprint(last["content"]), "refund order ")
		return InProcessResponse{ToolCalls: []InProcessToolCall{{Name: "refund", Arguments: map[string]any{"order": order}}}}, nil
	}})
	denied, err := client.Run(ctx, "refund order 42", tk)
	if err != nil || denied.Status != "done" || !strings.Contains(denied.Text, "denied: order 42 is under review") {
		t.Fatalf("denied: %v %s %q", err, denied.Status, denied.Text)
	}
	allowed, err := client.Run(ctx, "refund order 7", tk)
	if err != nil || allowed.Status != "done" || !strings.Contains(allowed.Text, "refunded order 7") || refunds != 1 {
		t.Fatalf("allowed: %v %s %q, %d refunds", err, allowed.Status, allowed.Text, refunds)
	}
	if len(allowed.Decisions) != 1 || allowed.Decisions[0].Decision != approval.Allowed {
		t.Errorf("decisions %+v", allowed.Decisions)
	}
	if err := approval.Verify(log.Entries(), log.Head()); err != nil || len(log.Entries()) != 2 {
		t.Errorf("record: %v, %d entries", err, len(log.Entries()))
	}
}
