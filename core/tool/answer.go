package tool

import (
	"math/rand/v2"
	"strconv"
)

// OutputKey is the Answer.Data key of an answer's payload (AnswerOutput;
// core.RelayOutputKey).
const OutputKey = "output"

// Request kinds with a meaning in core. The vocabulary is open.
const (
	KindApproval      = "approval"
	KindAuthorization = "authorization"
	KindInput         = "input"
	KindQuestion      = "question"
)

// AnswerOutput builds the Ok Answer carrying a payload: Data["output"].
//
//	a := AnswerOutput("req-1", "approved") // {ID:"req-1", Ok:true, Data:{"output":"approved"}}
func AnswerOutput(id string, output any) Answer {
	return Answer{ID: id, Ok: true, Data: map[string]any{OutputKey: output}}
}

// AnswerDeclined builds the Answer for a refused Request: Ok false, no Data,
// and a Reason the loop feeds back to the model. An empty reason becomes
// "declined", so the model never sees a refusal with nothing to explain it.
//
// A decline is not an aborted run: the tool call gets an error result that
// carries the reason, and the model reads it on its next turn.
func AnswerDeclined(id, reason string) Answer {
	if reason == "" {
		reason = "declined"
	}
	return Answer{ID: id, Ok: false, Reason: reason}
}

// Pending returns a suspension: a ToolResult whose Metadata["pending"] is req.
// An empty req.ID gets a fresh random id.
func Pending(req Request) ToolResult {
	if req.ID == "" {
		req.ID = NewID("req_")
	}
	out := req.Prompt
	if req.URL != "" {
		out += "\n" + req.URL
	}
	return ToolResult{Output: out, IsError: true, Metadata: map[string]any{"pending": req}}
}

// AuthRequired is the suspension for a login at url (kind "authorization").
// Credentials never travel in a Request: the person signs in at the URL.
func AuthRequired(url, prompt string) ToolResult {
	if prompt == "" {
		prompt = "Authorization required to continue"
	}
	return Pending(Request{Kind: KindAuthorization, Prompt: prompt, URL: url})
}

// PendingOf returns the Request a result suspends with, or nil.
func PendingOf(result ToolResult) *Request {
	switch v := result.Metadata["pending"].(type) {
	case Request:
		return &v
	case *Request:
		return v
	}
	return nil
}

// NewID returns prefix + 64 random bits in base 36. math/rand/v2's global
// source is ChaCha8 seeded from the runtime's entropy (crypto.getRandomValues
// under js/wasm); crypto/rand would add ~150 KB of wasm for no gain here,
// since an id only correlates an Answer with its Request and grants nothing.
func NewID(prefix string) string {
	return prefix + strconv.FormatUint(rand.Uint64(), 36)
}
