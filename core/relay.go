package core

import (
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Relay tools are declarations only: the model calls them, the run suspends
// with a Request of kind RelayKind, the host executes the call and answers
// with its output. Several relay calls of one turn ride one Request, in call
// order, under Data["calls"].

// RelayKind is the Request.Kind of a relayed tool call.
const RelayKind = "tool_call"

// Relay data keys. They travel on the wire and are fixed.
const (
	// RelayOutputKey is the Answer.Data key of the host's output for one call.
	RelayOutputKey = tool.OutputKey
	// RelayIsErrorKey marks the host's output as an error result.
	RelayIsErrorKey = "isError"
	relayCallsKey   = "calls"
	relayResultsKey = "results"
)

// RelayCall is one relayed tool call as listed in Request.Data["calls"].
type RelayCall struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Input     map[string]any `json:"input"`
	Arguments string         `json:"arguments"` // the raw JSON the model sent
}

// RelayResult is the host's result for one relayed call, keyed by call id.
type RelayResult struct {
	ID      string `json:"id"`
	Output  string `json:"output"`
	IsError bool   `json:"isError"`
}

// RelayTool declares a tool the host executes. schema nil means "an object
// with no declared properties".
//
//	refund := RelayTool("refund", "issue a refund", nil)
//	res, _ := client.Run(ctx, "refund order 42", tk) // res.Status == "pending"
//	calls := RelayCallsOf(res.Pending)              // [{ID:"c1", Name:"refund", …}]
func RelayTool(name, description string, schema JSONSchema) Tool {
	if schema == nil {
		schema = JSONSchema{"type": "object", "properties": map[string]any{}}
	}
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: schema,
		Source:      SourceRelay,
		Execute: func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
			if tctx != nil && tctx.Answer != nil {
				return relayResultFromAnswer(name, tctx.CallID, *tctx.Answer), nil
			}
			return Pending(Request{
				Kind:   RelayKind,
				Prompt: "run tool " + name + " on the host",
				Data: map[string]any{relayCallsKey: []any{
					map[string]any{"id": callID(tctx), "name": name, "input": args, "arguments": mustJSON(args)},
				}},
			}), nil
		},
	}
}

// IsRelayRequest reports whether req is a relayed tool call.
func IsRelayRequest(req *Request) bool { return req != nil && req.Kind == RelayKind }

// RelayCallsOf lists the relayed calls of req in call order; nil when req is
// not a relay request. It reads both Go values and decoded JSON.
func RelayCallsOf(req *Request) []RelayCall {
	if !IsRelayRequest(req) {
		return nil
	}
	var out []RelayCall
	switch calls := req.Data[relayCallsKey].(type) {
	case []RelayCall:
		return append(out, calls...)
	case []any:
		for _, c := range calls {
			switch v := c.(type) {
			case RelayCall:
				out = append(out, v)
			case map[string]any:
				rc := RelayCall{}
				rc.ID, _ = v["id"].(string)
				rc.Name, _ = v["name"].(string)
				rc.Input, _ = v["input"].(map[string]any)
				rc.Arguments, _ = v["arguments"].(string)
				out = append(out, rc)
			}
		}
	}
	return out
}

// RelayAnswer builds the Ok Answer for a relay Request from the host's
// per-call results.
func RelayAnswer(requestID string, results []RelayResult) Answer {
	arr := make([]any, 0, len(results))
	for _, r := range results {
		arr = append(arr, map[string]any{"id": r.ID, "output": r.Output, "isError": r.IsError})
	}
	return Answer{ID: requestID, Ok: true, Data: map[string]any{relayResultsKey: arr}}
}

// relayResultFor picks the host's result for one relayed call: the entry of
// Data["results"] with its id, else (for the first call of the request only)
// the single-call shape Data["output"].
func relayResultFor(a Answer, id string, first bool) (RelayResult, bool) {
	if arr, ok := a.Data[relayResultsKey].([]any); ok {
		for _, e := range arr {
			m, _ := e.(map[string]any)
			if rid, _ := m["id"].(string); rid == id {
				r := RelayResult{ID: id}
				r.Output = jsonx.Text(m["output"])
				r.IsError, _ = m["isError"].(bool)
				return r, true
			}
		}
		return RelayResult{}, false
	}
	if out, ok := a.Data[RelayOutputKey]; ok && first {
		isErr, _ := a.Data[RelayIsErrorKey].(bool)
		return RelayResult{ID: id, Output: jsonx.Text(out), IsError: isErr}, true
	}
	return RelayResult{}, false
}

// relayResultFromAnswer turns the host's Answer for a single call into the
// tool result the model sees. A decline is an error result, never an abort.
func relayResultFromAnswer(name, id string, a Answer) ToolResult {
	if !a.Ok {
		return declinedResult(name, a.Reason)
	}
	r, ok := relayResultFor(a, id, true)
	if !ok {
		return missingRelayOutput(name, false)
	}
	return ToolResult{Output: r.Output, IsError: r.IsError}
}

func callID(tctx *ToolContext) string {
	if tctx == nil {
		return ""
	}
	return tctx.CallID
}

// missingRelayOutput is the error result of a relay call whose Answer carries
// no output for it, worded as the Go port words it: an inline (WaitFor)
// answer names the helper that builds a proper one; a resume says the
// result was not supplied.
func missingRelayOutput(name string, durable bool) ToolResult {
	if durable {
		return ToolResult{Output: "no result supplied on resume for " + name, IsError: true}
	}
	return ToolResult{Output: "relay answer for " + name + ` carries no "output" — build it with AnswerOutput(id, output)`, IsError: true}
}
