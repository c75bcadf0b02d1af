package approval

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core/tool"
)

// The Answer.Data keys of an approval's answer besides the edited "args"
// and GrantKey: who answered ("in page", an approver's name) and where
// from (FromTab, FromLink, …), for the record. A host sets them; a
// decision without them is recorded as coming from the way the answer
// reached the run (a WaitFor, a resume, a journal's answer).
const (
	ApproverKey = "approver"
	FromKey     = "from"
)

// Request is the suspension for a call of t that needs approval: Data
// carries the tool, its source, the call id and the exact arguments, the
// tool's input schema (so that whoever answers can check an edit before
// sending it; the loop checks it again), an MCP tool's server, the rule
// that asked (rule, "" for the tool's own NeedsApproval) and, for a tool
// that always asks, "alwaysAsk": no grant may be given for it.
func Request(t tool.Tool, callID string, args map[string]any, rule string) tool.Request {
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
	if rule != "" {
		data["rule"] = rule
	}
	if t.AlwaysAsk {
		data["alwaysAsk"] = true
	}
	return tool.Request{
		ID:     tool.NewID("req_"),
		Kind:   tool.KindApproval,
		Prompt: fmt.Sprintf("Allow the tool %q to run with these arguments?", t.Name),
		Data:   data,
	}
}

// EditedArgs returns the arguments an approval lets run: the edited ones
// in answer.Data["args"] when present (after checking them against t's
// schema), else original.
func EditedArgs(t tool.Tool, original map[string]any, answer *tool.Answer) (map[string]any, error) {
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

// CheckEdit reports what is wrong with the edited arguments an Ok answer
// to the approval request req carries in Data["args"]: nil when it
// carries none or they fit the schema req carries; and a grant asked of a
// tool that always asks, or of an unknown scope.
func CheckEdit(req tool.Request, answer tool.Answer) error {
	if !answer.Ok || req.Kind != tool.KindApproval {
		return nil
	}
	if g, ok := answer.Data[GrantKey]; ok {
		switch {
		case g != GrantArgs && g != GrantAny:
			return fmt.Errorf(`"grant" must be %q (these arguments) or %q (any arguments)`, GrantArgs, GrantAny)
		case req.Data["alwaysAsk"] == true:
			return errors.New("this tool always asks: it cannot be allowed for the conversation")
		}
	}
	if _, ok := answer.Data["args"]; !ok {
		return nil
	}
	schema, _ := req.Data["schema"].(map[string]any)
	name, _ := req.Data["tool"].(string)
	_, err := EditedArgs(tool.Tool{Name: name, InputSchema: schema}, nil, &answer)
	return err
}

// Word is the decision an answer to a request of kind makes, as the
// record names it.
func Word(a tool.Answer, kind string) string {
	switch {
	case kind == "outcome_unknown" && !a.Ok:
		return Failed
	case a.Data["outcome"] == Happened:
		return Happened
	case a.Data["outcome"] == Rerun:
		return Rerun
	case !a.Ok:
		return Declined
	case a.Data["args"] != nil:
		return Edited
	}
	return Approved
}

// Answered is the entry of a person's answer a to req, a request of kind
// approval or outcome_unknown (its arguments are the recorder's to add);
// from is where the answer came from when a says nothing of it
// (ApproverKey, FromKey).
func Answered(req tool.Request, a tool.Answer, from string) Entry {
	e := Entry{Request: req.ID, Decision: Word(a, req.Kind), From: from}
	e.Call, _ = req.Data["callId"].(string)
	e.Tool, _ = req.Data["tool"].(string)
	e.Rule, _ = req.Data["rule"].(string)
	if !a.Ok {
		e.Reason = a.Reason
	}
	if s, ok := a.Data[ApproverKey].(string); ok {
		e.Approver = s
	}
	if s, ok := a.Data[FromKey].(string); ok && s != "" {
		e.From = s
	}
	if g, ok := a.Data[GrantKey].(string); ok && a.Ok && req.Kind == tool.KindApproval && req.Data["alwaysAsk"] != true {
		e.Grant = g
	}
	if out, ok := a.Data["output"].(string); ok && e.Decision == Happened {
		e.Reason = out
	}
	return e
}
