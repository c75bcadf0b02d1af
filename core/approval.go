package core

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sort"
	"strings"
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
	if err := validateArgs(t.InputSchema, edited); err != nil {
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

// validateArgs checks args against the parts of a JSON Schema that catch a
// mistyped edit: required keys, the primitive type of each declared property,
// enums, and additionalProperties:false. It is not a full validator on purpose:
// a full one would cost wasm size for checks the model's provider already does.
func validateArgs(schema JSONSchema, args map[string]any) error {
	if schema == nil {
		return nil
	}
	var problems []string
	for _, key := range stringList(schema["required"]) {
		if _, ok := args[key]; !ok {
			problems = append(problems, fmt.Sprintf("missing required %q", key))
		}
	}
	props, _ := schema["properties"].(map[string]any)
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p, declared := props[k].(map[string]any)
		if !declared {
			if ap, ok := schema["additionalProperties"].(bool); ok && !ap {
				problems = append(problems, fmt.Sprintf("unexpected property %q", k))
			}
			continue
		}
		if want := stringList(p["type"]); len(want) > 0 && !typeMatches(args[k], want) {
			problems = append(problems, fmt.Sprintf("%q must be %s", k, strings.Join(want, " or ")))
		}
		if enum, ok := p["enum"].([]any); ok && !inEnum(args[k], enum) {
			problems = append(problems, fmt.Sprintf("%q must be one of %s", k, mustJSON(enum)))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

func typeMatches(v any, want []string) bool {
	for _, w := range want {
		switch w {
		case "string":
			if _, ok := v.(string); ok {
				return true
			}
		case "number":
			if _, ok := v.(float64); ok {
				return true
			}
		case "integer":
			if f, ok := v.(float64); ok && f == float64(int64(f)) {
				return true
			}
		case "boolean":
			if _, ok := v.(bool); ok {
				return true
			}
		case "object":
			if _, ok := v.(map[string]any); ok {
				return true
			}
		case "array":
			if _, ok := v.([]any); ok {
				return true
			}
		case "null":
			if v == nil {
				return true
			}
		}
	}
	return false
}

func inEnum(v any, enum []any) bool {
	s := mustJSON(v)
	for _, e := range enum {
		if mustJSON(e) == s {
			return true
		}
	}
	return false
}

// stringList reads a schema value that is a string or a list of strings.
func stringList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []string:
		return t
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
