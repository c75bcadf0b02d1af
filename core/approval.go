package core

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core/tool"
)

// RequireApproval returns t marked as needing approval: its first call
// suspends with a Request of kind "approval" whose Data holds the tool name,
// its source, the call id and the exact arguments; it runs only after an Ok
// Answer. An Ok Answer may carry edited arguments in Data["args"]; they are
// checked against the tool's input schema before the tool runs.
func RequireApproval(t Tool) Tool {
	t.NeedsApproval = true
	return t
}

// approvalRequest builds the suspension for a call that needs approval.
// Data carries the tool's input schema, so that whoever answers can check
// edited arguments before sending them (core checks them again), and for an
// MCP tool the server's configured name, to tell the person where it runs.
func approvalRequest(t Tool, callID string, args map[string]any) Request {
	data := map[string]any{
		"tool":   t.Name,
		"source": string(t.Source),
		"callId": callID,
		"args":   args,
	}
	if t.InputSchema != nil {
		data["schema"] = map[string]any(t.InputSchema)
	}
	if t.Server != "" {
		data["server"] = t.Server
	}
	return Request{
		ID:     newID("req_"),
		Kind:   KindApproval,
		Prompt: fmt.Sprintf("Allow the tool %q to run with these arguments?", t.Name),
		Data:   data,
	}
}

// approvedArgs returns the arguments an approval lets run: the edited ones in
// answer.Data["args"] when present (after checking them against the schema),
// else the original ones.
func approvedArgs(t Tool, original map[string]any, answer *Answer) (map[string]any, error) {
	raw, ok := answer.Data["args"]
	if !ok {
		return original, nil
	}
	edited, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("edited arguments must be an object, got %T", raw)
	}
	if err := tool.CheckArgs(t.InputSchema, edited); err != nil {
		return nil, fmt.Errorf("edited arguments do not match the schema of %s: %w", t.Name, err)
	}
	return edited, nil
}

// CheckApprovalEdit reports what is wrong with the edited arguments an Ok
// answer to the approval request req carries in Data["args"]: nil when it
// carries none or they fit the schema req carries. A host calls it to refuse
// a bad edit before it spends anything (the Worker answers 400 and its state
// token stays good); the loop checks the edit again against the tool itself.
func CheckApprovalEdit(req Request, answer Answer) error {
	if _, ok := answer.Data["args"]; !ok || !answer.Ok || req.Kind != KindApproval {
		return nil
	}
	schema, _ := req.Data["schema"].(map[string]any)
	name, _ := req.Data["tool"].(string)
	_, err := approvedArgs(Tool{Name: name, InputSchema: schema}, nil, &answer)
	return err
}
