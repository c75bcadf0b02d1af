package workertest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// UIChunks posts body to /v1/ui, checks it answered a UI message stream
// ending in [DONE], and returns its chunks.
func (hs *Harness) UIChunks(body any) []map[string]any {
	hs.T.Helper()
	b, _ := json.Marshal(body)
	rec := hs.Do(http.MethodPost, "/v1/ui", string(b))
	if rec.Code != http.StatusOK || rec.Header().Get("X-Vercel-Ai-Ui-Message-Stream") != "v1" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		hs.T.Fatalf("/v1/ui answered %d %v: %s", rec.Code, rec.Header(), rec.Body.String())
	}
	var out []map[string]any
	done := false
	for _, block := range strings.Split(rec.Body.String(), "\n\n") {
		data, ok := strings.CutPrefix(block, "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		var c map[string]any
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			hs.T.Fatalf("chunk %q: %v", data, err)
		}
		out = append(out, c)
	}
	if !done {
		hs.T.Fatalf("no [DONE] in %s", rec.Body.String())
	}
	return out
}

// ChunkTypes lists the chunks' types, comma-separated.
func ChunkTypes(cs []map[string]any) string {
	var t []string
	for _, c := range cs {
		t = append(t, c["type"].(string))
	}
	return strings.Join(t, ",")
}

// ChunkOf is the first chunk of type typ, or nil.
func ChunkOf(cs []map[string]any, typ string) map[string]any {
	for _, c := range cs {
		if c["type"] == typ {
			return c
		}
	}
	return nil
}

// UIUser is a user message of the AI SDK's Chat.
func UIUser(id, text string) map[string]any {
	return map[string]any{"id": id, "role": "user", "parts": []any{map[string]any{"type": "text", "text": text}}}
}

// UIAnswered is the assistant message the AI SDK's Chat sends after
// addToolApprovalResponse on the approval request in chunks.
func UIAnswered(chunks []map[string]any, approved bool, reason string) map[string]any {
	in, req := ChunkOf(chunks, "tool-input-available"), ChunkOf(chunks, "tool-approval-request")
	approval := map[string]any{"id": req["approvalId"], "approved": approved, "signature": req["signature"]}
	if reason != "" {
		approval["reason"] = reason
	}
	return map[string]any{"id": "a1", "role": "assistant", "parts": []any{
		map[string]any{"type": "step-start"},
		map[string]any{"type": "tool-" + in["toolName"].(string), "toolCallId": in["toolCallId"], "state": "approval-responded", "input": in["input"], "approval": approval},
	}}
}

// JSON is v as JSON text.
func JSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
