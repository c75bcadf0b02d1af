package teams

import (
	"net/http"
	"testing"
)

// /v1/ui with "agent": a member's halt is the approval request of its
// call, and the answer resumes the tree once.
func TestUITeamApproval(t *testing.T) {
	hs, _ := newTeamHarness(t)
	user := uiUser("u1", "review order 42")
	halted := hs.UIChunks(map[string]any{"messages": []any{user}, "agent": "support"})
	if got := chunkTypes(halted); got != "start,start-step,tool-input-available,finish-step,start-step,tool-input-available,tool-approval-request,finish-step,finish" {
		t.Fatalf("chunks %s", got)
	}
	task, refund := halted[2], halted[5]
	req := chunkOf(halted, "tool-approval-request")
	desc, _ := req["approvalDescriptor"].(map[string]any)
	meta, _ := refund["toolMetadata"].(map[string]any)
	if task["toolName"] != "task" || refund["toolName"] != "refund" || req["toolCallId"] != refund["toolCallId"] ||
		uiBody(desc["path"]) != `["support","billing"]` || uiBody(meta["path"]) != `["support","billing"]` {
		t.Fatalf("task %v, refund %v, request %v", task, refund, req)
	}
	answered := uiAnswered(halted[4:], true, "")
	answer := map[string]any{"messages": []any{user, answered}, "agent": "support"}
	resumed := hs.UIChunks(answer)
	if got := chunkTypes(resumed); got != "start,tool-output-available,tool-output-available,start-step,text-start,text-delta,text-end,finish-step,finish" {
		t.Fatalf("chunks %s", got)
	}
	if resumed[1]["toolCallId"] != refund["toolCallId"] || resumed[1]["output"] != "refunded order 42" || resumed[2]["toolCallId"] != task["toolCallId"] {
		t.Fatalf("outputs %v %v", resumed[1], resumed[2])
	}
	if m, _ := chunkOf(resumed, "finish")["messageMetadata"].(map[string]any); m["toolnexus"].(map[string]any)["agent"] != "support" {
		t.Fatalf("finish %v", chunkOf(resumed, "finish"))
	}
	code, body := hs.Post("/v1/ui", answer)
	if code != http.StatusConflict || errCode(body) != "state_spent" || hs.refunds.Load() != 1 {
		t.Fatalf("replay: %d %v, refunds %d", code, body, hs.refunds.Load())
	}
	code, body = hs.Post("/v1/ui", map[string]any{"messages": []any{user}, "agent": "nobody"})
	if code != http.StatusBadRequest || errCode(body) != "unknown_agent" {
		t.Fatalf("unknown agent: %d %v", code, body)
	}
}
