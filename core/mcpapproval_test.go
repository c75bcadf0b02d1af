package core

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// annotatedTools covers the annotations a server may give a tool.
var annotatedTools = []string{
	`{"name":"read","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`,
	`{"name":"delete","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}}`,
	`{"name":"append","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":false}}`,
	`{"name":"plain","inputSchema":{"type":"object"}}`,
	`{"name":"odd","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":true}}`,
	`{"name":"hinted","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}`,
}

func TestMCPApprovalPolicy(t *testing.T) {
	tests := []struct {
		name, setting string
		want          []string // tools that need approval
	}{
		{"default: all but readOnlyHint true", ``, []string{"delete", "append", "plain", "odd", "hinted"}},
		{"null is the default", `"approval":null`, []string{"delete", "append", "plain", "odd", "hinted"}},
		{"always", `"approval":"always"`, []string{"read", "delete", "append", "plain", "odd", "hinted"}},
		{"never", `"approval":"never"`, nil},
		{"destructive", `"approval":"destructive"`, []string{"delete", "plain", "odd", "hinted"}},
		{"listed", `"approval":["read","append","not-there"]`, []string{"read", "append"}},
		{"listed by toolkit name", `"approval":["s_plain","odd"]`, []string{"plain", "odd"}},
		{"empty list", `"approval":[]`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newMemoryMCP(annotatedTools...)
			tk, err := CreateToolkit(context.Background(), Options{MCP: f.config("s", tc.setting), Transport: f})
			if err != nil {
				t.Fatal(err)
			}
			defer tk.Close()
			var got []string
			offered := 0
			for _, tool := range tk.Tools() {
				if tool.Source != SourceMCP {
					continue
				}
				offered++
				if tool.NeedsApproval {
					got = append(got, strings.TrimPrefix(tool.Name, "s_"))
				}
			}
			if offered != len(annotatedTools) || !slices.Equal(got, tc.want) {
				t.Errorf("need approval: %v, want %v (status %+v)", got, tc.want, tk.MCPServers())
			}
		})
	}
}

func TestMCPApprovalConfigErrors(t *testing.T) {
	for _, setting := range []string{`"sometimes"`, `"Always"`, `true`, `1`, `{"mode":"always"}`, `["ok", 3]`, `[""]`} {
		_, err := ParseMCPConfig([]byte(`{"mcpServers":{"files":{"url":"http://f/mcp","approval":` + setting + `}}}`))
		if err == nil || !strings.Contains(err.Error(), `server "files": approval`) {
			t.Errorf("approval %s: err %v, want one naming the server and the setting", setting, err)
		}
	}
	cfgs, err := ParseMCPConfig([]byte(`{"mcpServers":{"a":{"url":"http://a","approval":"destructive"},"b":{"url":"http://b","approval":["x"]}}}`))
	if err != nil || cfgs[0].Approval.Mode != MCPApproveDestructive || cfgs[1].Approval.Mode != MCPApproveListed || !slices.Equal(cfgs[1].Approval.Tools, []string{"x"}) {
		t.Errorf("parsed %+v, %v", cfgs, err)
	}
	// CreateToolkit refuses the configuration before contacting anyone.
	f := newMemoryMCP(annotatedTools...)
	if _, err := CreateToolkit(context.Background(), Options{MCP: f.config("files", `"approval":"sometimes"`), Transport: f}); err == nil || !strings.Contains(err.Error(), `"files"`) {
		t.Errorf("CreateToolkit: %v", err)
	}
	if n := len(f.methods()); n != 0 {
		t.Errorf("a bad configuration still sent %d messages", n)
	}
}

// TestMCPDestructiveToolSuspends runs the loop: a readOnly tool runs
// directly; a destructive one halts for approval without reaching the
// server, and runs once approved.
func TestMCPDestructiveToolSuspends(t *testing.T) {
	ctx := context.Background()
	f := newMemoryMCP(annotatedTools...)
	tk, err := CreateToolkit(ctx, Options{MCP: f.config("s", ""), Transport: f})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	model := func(tool string) *Client {
		return CreateGenerateClient(func(ctx context.Context, req GenerateRequest) (GenerateResponse, error) {
			if last := req.Messages[len(req.Messages)-1]; last["role"] == "tool" {
				return GenerateResponse{Text: "done: " + last["content"].(string)}, nil
			}
			return GenerateResponse{ToolCalls: []ToolRequest{{ID: "c1", Name: tool, Arguments: `{}`}}}, nil
		}, ClientOptions{Model: "local"})
	}
	calls := func() int { return strings.Count(strings.Join(f.methods(), ","), "tools/call") }

	read, err := model("s_read").Run(ctx, "read it", tk)
	if err != nil || read.Status != "done" || read.Text != "done: ran read" || calls() != 1 {
		t.Fatalf("readOnly tool: %+v %v (calls %d)", read, err, calls())
	}
	client := model("s_delete")
	halted, err := client.Run(ctx, "delete it", tk)
	if err != nil || halted.Status != "pending" || halted.Pending == nil || halted.Pending.Kind != KindApproval || halted.Pending.Data["tool"] != "s_delete" {
		t.Fatalf("destructive tool: %+v %v", halted, err)
	}
	if calls() != 1 {
		t.Fatalf("the destructive tool reached the server before approval: %v", f.methods())
	}
	done, err := client.RunWithAnswer(ctx, tk, halted.Messages, *halted.Pending, Answer{ID: halted.Pending.ID, Ok: true})
	if err != nil || done.Text != "done: ran delete" || calls() != 2 {
		t.Fatalf("approved: %+v %v (calls %d)", done, err, calls())
	}
}

func TestMCPTaskOnlyToolsHidden(t *testing.T) {
	f := newMemoryMCP(
		`{"name":"quick","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`,
		`{"name":"batch","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`,
		`{"name":"either","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}`,
		`{"name":"never","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden"}}`,
	)
	tk, err := CreateToolkit(context.Background(), Options{MCP: f.config("t", ""), Transport: f})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	var names []string
	for _, tool := range tk.Tools() {
		if tool.Source == SourceMCP {
			names = append(names, tool.Name)
		}
	}
	st := tk.MCPServers()["t"]
	if !slices.Equal(names, []string{"t_quick", "t_either", "t_never"}) || st.Tools != 3 || !slices.Equal(st.Hidden, []string{"batch"}) {
		t.Errorf("tools %v, status %+v", names, st)
	}
	if _, ok := tk.Get("t_batch"); ok {
		t.Error("a task-only tool can be looked up")
	}
}
