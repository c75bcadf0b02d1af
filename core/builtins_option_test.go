package core

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

func toolNames(tk *Toolkit) string {
	var names []string
	for _, t := range tk.Tools() {
		names = append(names, t.Name)
	}
	return strings.Join(names, ",")
}

func TestBuiltinsOption(t *testing.T) {
	all := strings.Join(BuiltinNames, ",")
	host := func(name string) Tool {
		return NativeTool(name, "host tool", nil, func(context.Context, map[string]any) (string, error) { return "host " + name, nil })
	}
	tests := []struct {
		name    string
		opts    Options
		want    string
		wantErr string
	}{
		{"default on", Options{}, all, ""},
		{"true", Options{Builtins: true}, all, ""},
		{"false", Options{Builtins: false, ExtraTools: []Tool{host("x")}}, "x", ""},
		{"map drops one", Options{Builtins: map[string]bool{"webfetch": false, "read": true}}, "question,todowrite,read,write,edit,glob,grep,apply_patch", ""},
		{"config", Options{Builtins: &BuiltinsConfig{Tools: map[string]bool{"question": false}}}, "webfetch,todowrite,read,write,edit,glob,grep,apply_patch", ""},
		{"unknown names ignored", Options{Builtins: map[string]bool{"bash": false, "nope": true}}, all, ""},
		{"bash asked for", Options{Builtins: map[string]bool{"bash": true}}, "", "no shell"},
		{"bad type", Options{Builtins: "yes"}, "", "Builtins must be"},
		{"host tools first and win", Options{ExtraTools: []Tool{host("bash"), host("read")}},
			"bash,read,question,webfetch,todowrite,write,edit,glob,grep,apply_patch", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tk, err := CreateToolkit(context.Background(), tc.opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := toolNames(tk); got != tc.want {
				t.Fatalf("tools = %s, want %s", got, tc.want)
			}
		})
	}
	tk, _ := CreateToolkit(context.Background(), Options{ExtraTools: []Tool{host("read")}})
	if r, _ := tk.Get("read"); r.Source == SourceBuiltin {
		t.Fatalf("the host tool named read must be kept, got source %s", r.Source)
	}
}

func TestBuiltinApprovalDefaults(t *testing.T) {
	for _, noApproval := range []bool{false, true} {
		tk, err := CreateToolkit(context.Background(), Options{Builtins: BuiltinsConfig{NoApproval: noApproval}})
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tk.Tools() {
			want := !noApproval && (tool.Name == "write" || tool.Name == "edit" || tool.Name == "apply_patch")
			if tool.NeedsApproval != want || tool.Source != SourceBuiltin {
				t.Errorf("NoApproval=%v: %s NeedsApproval=%v source=%s", noApproval, tool.Name, tool.NeedsApproval, tool.Source)
			}
		}
	}
}

// TestQuestionAndWriteInTheLoop plays the demo's scenario: the model asks a
// question, then writes a file; WaitFor answers the one and approves the other.
func TestQuestionAndWriteInTheLoop(t *testing.T) {
	files := memfs(t, nil)
	tk, err := CreateToolkit(context.Background(), Options{Builtins: BuiltinsConfig{Files: files}})
	if err != nil {
		t.Fatal(err)
	}
	m := newScripted(t, StyleOpenAI,
		turn{Calls: []ToolRequest{call("c1", "question", `{"questions":[{"question":"Title?","options":["Plan","Notes"]}]}`)}},
		turn{Calls: []ToolRequest{call("c2", "write", `{"path":"notes/title.md","content":"# Plan\n"}`)}},
		turn{Text: "saved"})
	var kinds []string
	wait := func(r Request) (Answer, error) {
		kinds = append(kinds, r.Kind)
		if r.Kind == KindQuestion {
			return Answer{ID: r.ID, Ok: true, Data: map[string]any{"answers": []any{"Plan"}}}, nil
		}
		return Answer{ID: r.ID, Ok: true}, nil
	}
	res, err := m.client(ClientOptions{WaitFor: wait}).Run(context.Background(), "make a title", tk)
	if err != nil || res.Status != StatusDone {
		t.Fatalf("res %+v err %v", res, err)
	}
	if strings.Join(kinds, ",") != "question,approval" {
		t.Fatalf("requests = %v", kinds)
	}
	if got := m.toolResults(3); len(got) != 2 || got[0] != "Title?\n→ Plan" || !strings.Contains(got[1], "Wrote 7 bytes to notes/title.md") {
		t.Fatalf("tool results = %q", got)
	}
	if files.Snapshot()["notes/title.md"] != "# Plan\n" {
		t.Fatalf("files = %v", files.Snapshot())
	}
}

func TestSkillsOption(t *testing.T) {
	skills := fstest.MapFS{"refunds/SKILL.md": {Data: []byte("---\nname: refunds\ndescription: How refunds work\n---\nRefund within 30 days.\n")}}
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, SkillsFS: skills})
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(tk); got != "skill" || !strings.Contains(tk.SkillsPrompt(), "- refunds: How refunds work") {
		t.Fatalf("tools %s, prompt %q", got, tk.SkillsPrompt())
	}
	res, err := tk.Execute(context.Background(), "skill", map[string]any{"name": "refunds"})
	if err != nil || res.IsError || !strings.Contains(res.Output, "Refund within 30 days.") {
		t.Fatalf("skill refunds = %+v, %v", res, err)
	}
	empty, _ := CreateToolkit(context.Background(), Options{Builtins: false})
	if empty.SkillsPrompt() != "" || empty.Skills() != nil {
		t.Fatal("a toolkit without skills has no skills prompt")
	}
}
