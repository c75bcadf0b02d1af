package agents

import (
	"context"

	tn "github.com/toolnexus/wasm/toolnexus"
)

// withGuardrails folds a Spec's guardrails into one BeforeTool ahead of
// the Spec's own: the first denial answers for the tool ("denied: …",
// an error result) and the Spec's BeforeTool never sees that call. No
// guardrails leaves hooks as they are (nil stays nil).
func withGuardrails(hooks *tn.Hooks, rails []Guardrail) *tn.Hooks {
	if len(rails) == 0 {
		return hooks
	}
	var out tn.Hooks
	if hooks != nil {
		out = *hooks
	}
	next := out.BeforeTool
	out.BeforeTool = func(ctx context.Context, ev tn.BeforeToolEvent) (*tn.ToolOverride, error) {
		for _, g := range rails {
			if reason := g(ev); reason != "" && reason != "allow" {
				return &tn.ToolOverride{Result: &tn.ToolResult{Output: "denied: " + reason, IsError: true}}, nil
			}
		}
		if next == nil {
			return nil, nil
		}
		return next(ctx, ev)
	}
	return &out
}
