package uiproto

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestUITextStreams(t *testing.T) {
	hs := newHarness(t, nil)
	cs := hs.UIChunks(map[string]any{"id": "c1", "trigger": "submit-message", "messages": []any{uiUser("u1", "hello")}})
	if got := chunkTypes(cs); got != "start,start-step,text-start,text-delta,text-end,finish-step,finish" {
		t.Fatalf("chunks %s", got)
	}
	if d := chunkOf(cs, "text-delta"); d["delta"] != "hello" {
		t.Fatalf("text %v", d)
	}
	meta, _ := chunkOf(cs, "finish")["messageMetadata"].(map[string]any)
	if tn, _ := meta["toolnexus"].(map[string]any); tn["status"] != "done" || chunkOf(cs, "finish")["finishReason"] != "stop" {
		t.Fatalf("finish %v", chunkOf(cs, "finish"))
	}
}

// An approval request's answer runs the tool once; the same answer again
// is refused (the APPROVALS ledger) and runs nothing.
func TestUIApprovalRunsOnce(t *testing.T) {
	hs := newHarness(t, nil)
	user := uiUser("u1", "refund order 42")
	halted := hs.UIChunks(map[string]any{"messages": []any{user}})
	if got := chunkTypes(halted); got != "start,start-step,tool-input-available,tool-approval-request,finish-step,finish" {
		t.Fatalf("chunks %s", got)
	}
	in, req := chunkOf(halted, "tool-input-available"), chunkOf(halted, "tool-approval-request")
	if in["toolName"] != "refund" || req["toolCallId"] != in["toolCallId"] || !strings.HasPrefix(req["signature"].(string), "tn1.") {
		t.Fatalf("input %v, request %v", in, req)
	}
	if d, _ := req["approvalDescriptor"].(map[string]any); d["tool"] != "refund" || d["source"] != "native" {
		t.Fatalf("descriptor %v", req["approvalDescriptor"])
	}
	if hs.refunds.Load() != 0 {
		t.Fatal("refund ran before approval")
	}
	answer := map[string]any{"messages": []any{user, uiAnswered(halted, true, "")}}
	resumed := hs.UIChunks(answer)
	if got := chunkTypes(resumed); got != "start,tool-output-available,start-step,text-start,text-delta,text-end,finish-step,finish" {
		t.Fatalf("chunks %s", got)
	}
	if out := chunkOf(resumed, "tool-output-available"); out["output"] != "refunded order 42" || out["toolCallId"] != in["toolCallId"] {
		t.Fatalf("output %v", out)
	}
	if d := chunkOf(resumed, "text-delta"); d["delta"] != "done: refunded order 42" {
		t.Fatalf("text %v", d)
	}
	code, body := hs.Post("/v1/ui", answer)
	if code != http.StatusConflict || errCode(body) != "state_spent" || hs.refunds.Load() != 1 {
		t.Fatalf("replay: %d %v, refunds %d", code, body, hs.refunds.Load())
	}
}

func TestUIDenialReasonReachesTheModel(t *testing.T) {
	hs := newHarness(t, nil)
	user := uiUser("u1", "refund order 42")
	halted := hs.UIChunks(map[string]any{"messages": []any{user}})
	resumed := hs.UIChunks(map[string]any{"messages": []any{user, uiAnswered(halted, false, "not before Friday")}})
	if chunkOf(resumed, "tool-output-denied") == nil || hs.refunds.Load() != 0 {
		t.Fatalf("chunks %s, refunds %d", chunkTypes(resumed), hs.refunds.Load())
	}
	reqs := hs.llm.Requests()
	if last := reqs[len(reqs)-1]; !strings.Contains(last, "not before Friday") {
		t.Fatalf("the model did not read the reason: %s", last)
	}
	if d := chunkOf(resumed, "text-delta"); !strings.Contains(d["delta"].(string), "not before Friday") {
		t.Fatalf("text %v", d)
	}
}

// The messages before a new turn reach the model as a transcript: text,
// and a finished tool call with its result.
func TestUIHistoryReachesTheModel(t *testing.T) {
	hs := newHarness(t, nil)
	prior := map[string]any{"id": "a1", "role": "assistant", "parts": []any{
		map[string]any{"type": "step-start"},
		map[string]any{"type": "tool-add", "toolCallId": "call_9", "state": "output-available", "input": map[string]any{"a": 2, "b": 3}, "output": "5"},
		map[string]any{"type": "step-start"},
		map[string]any{"type": "text", "text": "it is five"},
		map[string]any{"type": "tool-refund", "toolCallId": "call_10", "state": "approval-requested", "input": map[string]any{"order": 1}},
	}}
	hs.UIChunks(map[string]any{"messages": []any{uiUser("u1", "sum it"), prior, uiUser("u2", "hello")}})
	reqs := hs.llm.Requests()
	var sent struct {
		Messages []map[string]any `json:"messages"`
	}
	json.Unmarshal([]byte(reqs[len(reqs)-1]), &sent)
	var roles []string
	for _, m := range sent.Messages {
		roles = append(roles, m["role"].(string))
	}
	if got := strings.Join(roles, ","); got != "user,assistant,tool,assistant,user" {
		t.Fatalf("roles %s: %s", got, reqs[len(reqs)-1])
	}
	if sent.Messages[2]["tool_call_id"] != "call_9" || sent.Messages[2]["content"] != "5" || sent.Messages[3]["content"] != "it is five" {
		t.Fatalf("transcript %v", sent.Messages)
	}
}

func TestUIRefusesBadInput(t *testing.T) {
	hs := newHarness(t, nil)
	user := uiUser("u1", "refund order 42")
	halted := hs.UIChunks(map[string]any{"messages": []any{user}})
	forged := uiAnswered(halted, true, "")
	part := forged["parts"].([]any)[1].(map[string]any)
	part["approval"].(map[string]any)["signature"] = halted[3]["signature"].(string) + "x"
	unsigned := uiAnswered(halted, true, "")
	delete(unsigned["parts"].([]any)[1].(map[string]any)["approval"].(map[string]any), "signature")
	otherCall := uiAnswered(halted, true, "")
	otherCall["parts"].([]any)[1].(map[string]any)["toolCallId"] = "call_other"
	for _, c := range []struct {
		name string
		body string
		code int
		want string
	}{
		{"not an object", `[1]`, 400, "bad_json"},
		{"no messages", `{"id":"c1"}`, 400, "missing_field"},
		{"messages not a list", `{"messages":{"role":"user"}}`, 400, "invalid_field"},
		{"a message without parts", `{"messages":[{"id":"u1","role":"user","content":"hi"}]}`, 400, "invalid_field"},
		{"an unknown role", `{"messages":[{"id":"u1","role":"tool","parts":[]}]}`, 400, "invalid_field"},
		{"no text", `{"messages":[{"id":"u1","role":"user","parts":[{"type":"file","url":"x"}]}]}`, 400, "missing_field"},
		{"assistant last, nothing answered", `{"messages":[{"id":"a1","role":"assistant","parts":[{"type":"text","text":"hi"}]}]}`, 400, "invalid_field"},
		{"approval without signature", uiBody(map[string]any{"messages": []any{user, unsigned}}), 400, "unknown_approval"},
		{"approval for another call", uiBody(map[string]any{"messages": []any{user, otherCall}}), 400, "unknown_approval"},
		{"forged approval", uiBody(map[string]any{"messages": []any{user, forged}}), 400, "state_invalid"},
		{"too deep", `{"messages":` + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + `}`, 400, "json_too_deep"},
	} {
		rec := hs.Do(http.MethodPost, "/v1/ui", c.body)
		body := decodeMap(t, rec)
		if rec.Code != c.code || errCode(body) != c.want {
			t.Errorf("%s: %d %v, want %d %s", c.name, rec.Code, body, c.code, c.want)
		}
	}
	if hs.refunds.Load() != 0 {
		t.Fatalf("refund ran %d times", hs.refunds.Load())
	}
}

// The approval response has no field for edited arguments: "approvalArgs"
// beside it carries them, checked against the tool's schema before the
// answer is spent, and the tool result says what ran.
func TestUIApprovalWithEditedArgs(t *testing.T) {
	hs := newHarness(t, nil)
	user := uiUser("u1", "refund order 42")
	halted := hs.UIChunks(map[string]any{"messages": []any{user}})
	answered := uiAnswered(halted, true, "")
	code, body := hs.Post("/v1/ui", map[string]any{"messages": []any{user, answered}, "approvalArgs": map[string]any{"order": "many"}})
	if code != http.StatusBadRequest || errCode(body) != "invalid_args" || hs.refunds.Load() != 0 {
		t.Fatalf("a bad edit: %d %v", code, body)
	}
	code, body = hs.Post("/v1/ui", map[string]any{"messages": []any{user, answered}, "approvalArgs": []any{1}})
	if code != http.StatusBadRequest || errCode(body) != "invalid_field" {
		t.Fatalf("approvalArgs not an object: %d %v", code, body)
	}
	resumed := hs.UIChunks(map[string]any{"messages": []any{user, answered}, "approvalArgs": map[string]any{"order": 43}})
	out := chunkOf(resumed, "tool-output-available")
	meta, _ := out["toolMetadata"].(map[string]any)
	if out["output"] != "refunded order 43" || meta["edited"] != true || uiBody(meta["args"]) != `{"order":43}` || uiBody(meta["originalArgs"]) != `{"order":42}` {
		t.Fatalf("output %v", out)
	}
	if hs.refunds.Load() != 1 {
		t.Fatalf("refunds %d", hs.refunds.Load())
	}
}

// With LLM_STYLE anthropic the UI messages become Anthropic's transcript
// (tool_use blocks, tool_result blocks in a user message), and the
// approval flow runs as in OpenAI's.
func TestUIAnthropicStyle(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["LLM_STYLE"] = "anthropic"
		env["LLM_BASE_URL"] = strings.TrimSuffix(env["LLM_BASE_URL"], "/v1")
	})
	prior := map[string]any{"id": "a1", "role": "assistant", "parts": []any{
		map[string]any{"type": "step-start"},
		map[string]any{"type": "tool-add", "toolCallId": "toolu_9", "state": "output-available", "input": map[string]any{"a": 2, "b": 3}, "output": "5"},
	}}
	user := uiUser("u2", "refund order 42")
	halted := hs.UIChunks(map[string]any{"messages": []any{uiUser("u1", "sum it"), prior, user}})
	reqs := hs.llm.Requests()
	var sent struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal([]byte(reqs[len(reqs)-1]), &sent)
	if len(sent.Messages) != 4 || uiBody(sent.Messages[1].Content) != `[{"id":"toolu_9","input":{"a":2,"b":3},"name":"add","type":"tool_use"}]` ||
		!strings.Contains(uiBody(sent.Messages[2].Content), `"tool_use_id":"toolu_9"`) {
		t.Fatalf("transcript %s", reqs[len(reqs)-1])
	}
	resumed := hs.UIChunks(map[string]any{"messages": []any{uiUser("u1", "sum it"), prior, user, uiAnswered(halted, true, "")}})
	if out := chunkOf(resumed, "tool-output-available"); out["output"] != "refunded order 42" || hs.refunds.Load() != 1 {
		t.Fatalf("chunks %s, refunds %d", chunkTypes(resumed), hs.refunds.Load())
	}
}

// useChat's resume option asks GET /v1/ui/<chat id>/stream; there is never
// a running response to join, and the AI SDK reads 204 as "none".
func TestUIReconnectFindsNothing(t *testing.T) {
	hs := newHarness(t, nil)
	if rec := hs.Do(http.MethodGet, "/v1/ui/chat-1/stream", ""); rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Fatalf("reconnect: %d %q", rec.Code, rec.Body.String())
	}
	if rec := hs.Do(http.MethodPost, "/v1/ui/chat-1/stream", "{}"); rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d", rec.Code)
	}
	if rec := hs.Do(http.MethodGet, "/v1/ui//stream", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("no id: %d", rec.Code)
	}
}
