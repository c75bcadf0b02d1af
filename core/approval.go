package core

import "github.com/toolnexus/wasm/core/approval"

// RequireApproval returns t marked as needing approval: its first call
// suspends with a Request of kind "approval" whose Data holds the tool name,
// its source, the call id and the exact arguments; it runs only after an Ok
// Answer. An Ok Answer may carry edited arguments in Data["args"]; they are
// checked against the tool's input schema before the tool runs. Approval
// rules (Options.Rules, core/approval) may allow, deny or ask about a call
// before the tool's own mark counts.
func RequireApproval(t Tool) Tool {
	t.NeedsApproval = true
	return t
}

// CheckApprovalEdit reports what is wrong with the edited arguments an Ok
// answer to the approval request req carries in Data["args"]: nil when it
// carries none or they fit the schema req carries; and a grant
// (Data["grant"]) of a tool that always asks. A host calls it to refuse a
// bad edit before it spends anything (the Worker answers 400 and its state
// token stays good); the loop checks the edit again against the tool itself.
func CheckApprovalEdit(req Request, answer Answer) error { return approval.CheckEdit(req, answer) }
