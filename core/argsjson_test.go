package core

import (
	"context"
	"testing"
)

// TestToolSeesArgsJSON: a tool gets the model's argument text beside the
// decoded args (ToolContext.ArgsJSON, which the JS bridge hands to a JS
// tool instead of encoding args again), and "" when a BeforeTool hook
// could have replaced the args.
func TestToolSeesArgsJSON(t *testing.T) {
	const args = `{"b": 2, "a": 1}`
	for _, tt := range []struct {
		name  string
		hooks *Hooks
		want  string
	}{
		{"no hook", nil, args},
		{"a BeforeTool hook", &Hooks{BeforeTool: func(context.Context, BeforeToolEvent) (*ToolOverride, error) {
			return &ToolOverride{Args: map[string]any{"a": 9.0}}, nil
		}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "t", args)}}, turn{Text: "done"})
			var got string
			var ran map[string]any
			tool := NativeTool("t", "records its context", nil, nil)
			tool.Execute = func(a map[string]any, tctx *ToolContext) (ToolResult, error) {
				got, ran = tctx.ArgsJSON, a
				return ToolResult{Output: "ok"}, nil
			}
			if _, err := m.client(ClientOptions{Hooks: tt.hooks}).Run(context.Background(), "go", mustToolkit(t, tool)); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ArgsJSON = %q, want %q (args %v)", got, tt.want, ran)
			}
		})
	}
}
