package core

import (
	"context"
	"github.com/toolnexus/wasm/core/wire"
	"strings"
	"testing"
)

func TestToolkitAssembly(t *testing.T) {
	var a, b counter
	first, second := a.tool("dup"), b.tool("dup")
	tk := mustToolkit(t, first, RelayTool("relay_me", "", nil), second)
	names := []string{}
	for _, tool := range tk.Tools() {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "dup,relay_me" {
		t.Fatalf("tools = %v (first of a name wins, order kept)", names)
	}
	if _, err := tk.Execute(context.Background(), "dup", map[string]any{"order": "1"}); err != nil || a.count() != 1 || b.count() != 0 {
		t.Fatalf("the first dup must win: a=%d b=%d err=%v", a.count(), b.count(), err)
	}
	if err := tk.Register(b.tool("dup")); err == nil {
		t.Fatal("Register must refuse a duplicate name")
	}
	if _, err := tk.Execute(context.Background(), "nope", nil); err == nil {
		t.Fatal("Execute of an unknown tool must fail")
	}
	if got := tk.ToOpenAI(); len(got) != 2 || got[1].(OpenAITool).Function.Name != "relay_me" {
		t.Fatalf("ToOpenAI = %v", got)
	}
	if got := tk.ToAnthropic(); got[0].(AnthropicTool).InputSchema == nil {
		t.Fatalf("ToAnthropic = %v", got)
	}
	if got := tk.ToGemini(); len(got) != 1 || len(got[0].(GeminiTool).FunctionDeclarations) != 2 {
		t.Fatalf("ToGemini = %v", got)
	}
	if err := tk.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestToolkitRejectsBadTools(t *testing.T) {
	tests := []Tool{
		{Name: "has space", Execute: func(map[string]any, *ToolContext) (ToolResult, error) { return ToolResult{}, nil }},
		{Name: "", Execute: func(map[string]any, *ToolContext) (ToolResult, error) { return ToolResult{}, nil }},
		{Name: "no_execute"},
	}
	for _, tool := range tests {
		if _, err := CreateToolkit(context.Background(), Options{ExtraTools: []Tool{tool}}); err == nil {
			t.Errorf("tool %q should be refused", tool.Name)
		}
	}
}

func TestToolkitExecuteRecoversPanic(t *testing.T) {
	tk := mustToolkit(t, Tool{Name: "p", Execute: func(map[string]any, *ToolContext) (ToolResult, error) { panic("oops") }})
	res, err := tk.Execute(context.Background(), "p", nil)
	if err != nil || !res.IsError || !strings.Contains(res.Output, "oops") {
		t.Fatalf("res %+v err %v", res, err)
	}
}

func TestWireToolsCacheInvalidatedOnRegister(t *testing.T) {
	var c counter
	tk := mustToolkit(t, c.tool("a"))
	before := string(tk.wireTools(StyleOpenAI, wire.OpenAI{}))
	if err := tk.Register(c.tool("b")); err != nil {
		t.Fatal(err)
	}
	after := string(tk.wireTools(StyleOpenAI, wire.OpenAI{}))
	if before == after || !strings.Contains(after, `"b"`) {
		t.Fatalf("cache not refreshed: %s", after)
	}
}
