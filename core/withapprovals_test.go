package core

import (
	"testing"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/wire"
)

// TestWithApprovals: a toolkit made WithApprovals has the tools and
// encodings of its source and a policy of its own; a tool registered into
// it afterwards is not the source's.
func TestWithApprovals(t *testing.T) {
	var c counter
	base := mustToolkit(t, c.tool("a"))
	own := &approval.Policy{}
	tk := base.WithApprovals(own)
	if tk.Approvals() != own || base.Approvals() == own {
		t.Fatal("the policy is not the derived toolkit's alone")
	}
	if b, d := base.wireTools(StyleOpenAI, wire.OpenAI{}), tk.wireTools(StyleOpenAI, wire.OpenAI{}); string(b) != string(d) || len(b) == 0 {
		t.Fatalf("encodings differ: %s / %s", b, d)
	}
	if err := tk.Register(c.tool("b")); err != nil {
		t.Fatal(err)
	}
	if _, ok := base.Get("b"); ok || len(base.Tools()) != 1 {
		t.Error("a tool registered into the derived toolkit reached its source")
	}
	if _, ok := tk.Get("b"); !ok {
		t.Error("the derived toolkit lost its registered tool")
	}
	if got := string(tk.wireTools(StyleOpenAI, wire.OpenAI{})); got == string(base.wireTools(StyleOpenAI, wire.OpenAI{})) {
		t.Error("the derived toolkit sends its source's tool list after a registration")
	}
	if tk2 := base.WithApprovals(nil); tk2.Approvals() == nil || tk2.Approvals() == base.Approvals() {
		t.Error("WithApprovals(nil) shares the source's policy")
	}
}
