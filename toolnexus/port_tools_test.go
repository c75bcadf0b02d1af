package toolnexus

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// Conformance with the Go port's tool helpers.

func TestPortSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"github", "github"},
		{"my server.v2", "my_server_v2"},
		{"a-b_c", "a-b_c"},
		{"café/ü", "caf___"},
		{"bad\xffbyte", "bad_byte"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPortExpandEnvNames(t *testing.T) {
	vals := map[string]string{"A": "1", "B_2": "two"}
	get := func(n string) string { return vals[n] }
	tests := []struct{ in, want string }{
		{"Bearer ${A}", "Bearer 1"},
		{"${A}${B_2}-${UNSET}", "1two-"},
		{"${not valid} ${2X} ${A", "${not valid} ${2X} ${A"},
		{"plain", "plain"},
	}
	for _, tc := range tests {
		if got := expandEnvNames(tc.in, get); got != tc.want {
			t.Errorf("expand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if ExpandEnvHeaders(nil) != nil {
		t.Error("ExpandEnvHeaders(nil) must be nil")
	}
}

// TestPortNativeToolReflect: the schema follows the json tags (omitempty
// is optional) and the arguments arrive decoded into the struct.
func TestPortNativeToolReflect(t *testing.T) {
	type item struct {
		SKU string `json:"sku"`
	}
	type order struct {
		ID     int               `json:"id"`
		Note   string            `json:"note,omitempty"`
		Items  []item            `json:"items"`
		Tags   map[string]string `json:"tags,omitempty"`
		Rush   *bool             `json:"rush,omitempty"`
		Hidden string            `json:"-"`
		secret string
	}
	var got order
	tool := NativeToolReflect("order", "place an order", func(_ context.Context, in order) (string, error) {
		got = in
		return "ok", nil
	})
	props := tool.InputSchema["properties"].(map[string]any)
	req := tool.InputSchema["required"].([]any)
	if len(props) != 5 || props["id"].(map[string]any)["type"] != "number" || props["items"].(map[string]any)["type"] != "array" ||
		len(req) != 2 || req[0] != "id" || req[1] != "items" || tool.InputSchema["additionalProperties"] != false {
		t.Fatalf("schema = %v", tool.InputSchema)
	}
	tk := mustToolkit(t, tool)
	args, _ := decodeObject([]byte(`{"id":7,"items":[{"sku":"x1"}],"tags":{"a":"b"},"rush":true}`))
	res, err := tk.Execute(context.Background(), "order", args)
	if err != nil || res.IsError || got.ID != 7 || len(got.Items) != 1 || got.Items[0].SKU != "x1" || got.Tags["a"] != "b" || got.Rush == nil || !*got.Rush {
		t.Fatalf("res %+v err %v got %+v", res, err, got)
	}
	bad, _ := decodeObject([]byte(`{"id":1.5,"items":[]}`))
	if res, _ := tk.Execute(context.Background(), "order", bad); !res.IsError || !strings.Contains(res.Output, "arguments.id") {
		t.Fatalf("a fractional id must be an error result, got %+v", res)
	}
}

// TestPortNativeToolNilSchema: a nil schema is the port's closed empty
// object.
func TestPortNativeToolNilSchema(t *testing.T) {
	tool := NativeTool("t", "", nil, func(context.Context, map[string]any) (string, error) { return "", nil })
	if tool.InputSchema["additionalProperties"] != false || tool.InputSchema["type"] != "object" {
		t.Fatalf("schema = %v", tool.InputSchema)
	}
}

// TestPortExecuteUnknown: Execute of an unknown tool is the port's
// error result, also on a nil toolkit; core's Execute makes it an error.
func TestPortExecuteUnknown(t *testing.T) {
	for _, tk := range []*Toolkit{mustToolkit(t), nil} {
		res, err := tk.Execute(context.Background(), "nope", nil)
		if err != nil || !res.IsError || res.Output != "Unknown tool: nope" {
			t.Fatalf("Execute(nope) = %+v, %v", res, err)
		}
		if _, err := coreToolkit(tk).Execute(context.Background(), "nope", nil); err == nil {
			t.Fatal("core's Execute(nope) must fail")
		}
	}
}

// TestPortNoBash: asking for a bash the toolkit lacks, from the host or
// the model, says why: natively it was turned off, under js/wasm there is
// no shell in the sandbox.
func TestPortNoBash(t *testing.T) {
	tk := mustToolkit(t)
	why := "off in this toolkit (Options.Builtins)"
	if runtime.GOOS == "js" {
		why = "no shell"
	}
	if res, err := tk.Execute(context.Background(), "bash", map[string]any{"command": "ls"}); err != nil || !res.IsError ||
		!strings.HasPrefix(res.Output, "Unknown tool: bash") || !strings.Contains(res.Output, why) {
		t.Fatalf("Execute(bash) = %+v, %v", res, err)
	}
	if _, err := tk.Toolkit.Execute(context.Background(), "bash", map[string]any{"command": "ls"}); err == nil || !strings.Contains(err.Error(), "no shell") {
		t.Fatalf("core's Execute(bash) = %v", err)
	}
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "bash", `{"command":"ls"}`)}}, turn{Text: "ok"})
	if _, err := m.client(ClientOptions{}).Run(context.Background(), "list files", tk); err != nil {
		t.Fatal(err)
	}
	if got := m.toolResults(2); len(got) != 1 || !strings.Contains(got[0], "no bash built-in") || !strings.Contains(got[0], "sandbox") {
		t.Fatalf("result = %q", got)
	}
	if res, _ := tk.Execute(context.Background(), "other", nil); res.Output != "Unknown tool: other" {
		t.Fatalf("Execute(other) = %+v", res)
	}
}

// TestPortRecordMetadata: a finished call's record keeps its result's
// metadata, as the port's ToolCall record does.
func TestPortRecordMetadata(t *testing.T) {
	tagged := Tool{Name: "tag", InputSchema: JSONSchema{"type": "object"}, Execute: func(map[string]any, *ToolContext) (ToolResult, error) {
		return ToolResult{Output: "ok", Metadata: map[string]any{"todos": []any{"a"}}}, nil
	}}
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "tag", `{}`)}}, turn{Text: "done"})
	res, err := m.client(ClientOptions{}).Run(context.Background(), "x", mustToolkit(t, tagged))
	if err != nil || len(res.ToolCalls) != 1 || res.ToolCalls[0].Metadata["todos"] == nil {
		t.Fatalf("res %+v err %v", res, err)
	}
	if b, _ := marshalJSON(res.ToolCalls[0]); strings.Contains(string(b), "todos") {
		t.Fatalf("record JSON = %s", b)
	}
}
