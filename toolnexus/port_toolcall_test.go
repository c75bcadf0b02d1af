package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/toolnexus/wasm/toolnexus"
)

// describeCall is written the way port code reads a finished call: by the
// port's field names and types, with no core-only field.
func describeCall(c toolnexus.ToolCall) (name string, order any, output string, failed bool, todos any) {
	return c.Name, c.Args["order"], c.Output, c.IsError, c.Metadata["todos"]
}

// TestPortToolCallRecord: RunResult.ToolCalls is a []ToolCall whose
// elements have the port's Name, Args (a map: the arguments the tool ran
// with, after a BeforeTool rewrite), Output, IsError and Metadata; the
// model's request is ToolRequest; the record's JSON keeps core's keys.
func TestPortToolCallRecord(t *testing.T) {
	ctx := context.Background()
	planner := toolnexus.Tool{Name: "plan", InputSchema: toolnexus.JSONSchema{"type": "object"},
		Execute: func(args map[string]any, _ *toolnexus.ToolContext) (toolnexus.ToolResult, error) {
			return toolnexus.ToolResult{Output: "planned " + args["order"].(string), Metadata: map[string]any{"todos": []any{"ship"}}}, nil
		}}
	broken := toolnexus.Tool{Name: "broken", InputSchema: toolnexus.JSONSchema{"type": "object"},
		Execute: func(map[string]any, *toolnexus.ToolContext) (toolnexus.ToolResult, error) {
			return toolnexus.ToolResult{}, errors.New("disk full")
		}}
	tk, err := toolnexus.CreateToolkit(ctx, toolnexus.Options{ExtraTools: []toolnexus.Tool{planner, broken}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()

	var mu sync.Mutex
	turns := 0
	client := toolnexus.CreateInProcessClient(toolnexus.InProcessOptions{
		Model: "local",
		Generate: func(toolnexus.InProcessRequest) (toolnexus.InProcessResponse, error) {
			mu.Lock()
			defer mu.Unlock()
			turns++
			if turns == 1 {
				return toolnexus.InProcessResponse{ToolCalls: []toolnexus.InProcessToolCall{
					{ID: "a", Name: "plan", Arguments: map[string]any{"order": "7"}},
					{ID: "b", Name: "broken", Arguments: `{"order":"8"}`},
				}}, nil
			}
			return toolnexus.InProcessResponse{Content: "done"}, nil
		},
		Hooks: &toolnexus.Hooks{
			BeforeTool: func(_ context.Context, ev toolnexus.BeforeToolEvent) (*toolnexus.ToolOverride, error) {
				if ev.Name == "plan" {
					return &toolnexus.ToolOverride{Args: map[string]any{"order": "7-rewritten"}}, nil
				}
				return nil, nil
			},
		},
	})
	res, err := client.Run(ctx, "plan order 7", tk)
	if err != nil {
		t.Fatal(err)
	}

	var calls []toolnexus.ToolCall = res.ToolCalls
	if len(calls) != 2 || res.ToolCallCount != 2 {
		t.Fatalf("calls = %+v", calls)
	}
	name, order, output, failed, todos := describeCall(calls[0])
	if name != "plan" || order != "7-rewritten" || output != "planned 7-rewritten" || failed {
		t.Errorf("plan record: name %q order %v output %q isError %v", name, order, output, failed)
	}
	if list, _ := todos.([]any); len(list) != 1 || list[0] != "ship" {
		t.Errorf("plan record metadata todos = %v", todos)
	}
	name, order, output, failed, _ = describeCall(calls[1])
	if name != "broken" || order != "8" || !failed || output == "" {
		t.Errorf("broken record: name %q order %v output %q isError %v", name, order, output, failed)
	}

	// The record's JSON is what the JS bridge and the Worker have always
	// emitted: "args" is the transcript's argument text, no "metadata".
	b, err := json.Marshal(calls[1])
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	if args, _ := keys["args"].(map[string]any); args["order"] != "8" || keys["id"] != "b" || keys["name"] != "broken" || keys["isError"] != true {
		t.Errorf("record JSON = %s", b)
	}
	if _, ok := keys["metadata"]; ok {
		t.Errorf("record JSON carries metadata: %s", b)
	}
	if string(calls[1].RawArgs) != `{"order":"8"}` {
		t.Errorf("RawArgs = %s", calls[1].RawArgs)
	}

	// The model's request is ToolRequest; ToolRecord stays core's earlier
	// name for the record.
	req := toolnexus.ToolRequest{ID: "c", Name: "plan", Arguments: `{"order":"1"}`}
	if resp := (toolnexus.LLMResponse{ToolCalls: []toolnexus.ToolRequest{req}}); resp.ToolCalls[0].Arguments != req.Arguments {
		t.Errorf("LLMResponse.ToolCalls = %+v", resp.ToolCalls)
	}
	var old toolnexus.ToolRecord = calls[0]
	if old.Name != "plan" {
		t.Errorf("ToolRecord = %+v", old)
	}
}

// TestPortToolCallLiteral: a port program can build a record itself (a
// test double, a replayed log) with the port's field names.
func TestPortToolCallLiteral(t *testing.T) {
	c := toolnexus.ToolCall{Name: "plan", Args: map[string]any{"order": "1"}, Output: "ok", IsError: false, Metadata: map[string]any{"todos": []any{}}}
	res := toolnexus.RunResult{ToolCalls: []toolnexus.ToolCall{c}, ToolCallCount: 1}
	if name, order, output, failed, todos := describeCall(res.ToolCalls[0]); name != "plan" || order != "1" || output != "ok" || failed || todos == nil {
		t.Fatalf("record = %+v", res.ToolCalls[0])
	}
}
