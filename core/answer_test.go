package core_test

import (
	"fmt"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// The seed's first example: the shape of a declined Answer.
func ExampleAnswerDeclined() {
	ans := core.AnswerDeclined("req-1", "not authorized")
	def := core.AnswerDeclined("req-2", "") // an empty reason defaults
	fmt.Println(ans.ID, ans.Ok, ans.Reason, "/", def.Reason)
	// Output: req-1 false not authorized / declined
}

// The seed's third example: a decline against a successful answer.
func ExampleAnswerOutput() {
	declined := core.AnswerDeclined("req-1", "")
	output := core.AnswerOutput("req-1", "approved")
	fmt.Println(declined.Ok, declined.Data == nil, output.Ok, output.Reason == "", output.Data["output"])
	// Output: false true true true approved
}

func TestAnswerHelpers(t *testing.T) {
	tests := []struct {
		name       string
		got        core.Answer
		wantOk     bool
		wantReason string
		wantData   bool
	}{
		{"declined with reason", core.AnswerDeclined("r", "not authorized"), false, "not authorized", false},
		{"declined default", core.AnswerDeclined("r", ""), false, "declined", false},
		{"output", core.AnswerOutput("r", "approved"), true, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got.ID != "r" || tt.got.Ok != tt.wantOk || tt.got.Reason != tt.wantReason || (tt.got.Data != nil) != tt.wantData {
				t.Fatalf("got %+v", tt.got)
			}
		})
	}
}

func TestPendingHelpers(t *testing.T) {
	res := core.Pending(core.Request{Kind: "input", Prompt: "your name?"})
	req := core.PendingOf(res)
	if req == nil || req.ID == "" || req.Kind != "input" || !res.IsError {
		t.Fatalf("Pending: %+v / %+v", res, req)
	}
	other := core.PendingOf(core.Pending(core.Request{}))
	if other.ID == req.ID {
		t.Fatalf("two suspensions share the id %q", req.ID)
	}
	auth := core.PendingOf(core.AuthRequired("https://login.test", ""))
	if auth.Kind != "authorization" || auth.URL != "https://login.test" || auth.Prompt == "" {
		t.Fatalf("AuthRequired: %+v", auth)
	}
	if core.PendingOf(core.ToolResult{Output: "x"}) != nil {
		t.Fatal("a plain result is not a suspension")
	}
}
