//go:build js && wasm && toolnexus_skills && !toolnexus_tools && !toolnexus_full

package core

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

// The Worker's build (-tags toolnexus_skills): skills work, built-ins are
// not linked and asking for them names the tag that has them.
func TestSkillsOnlyBuild(t *testing.T) {
	skills := fstest.MapFS{"refunds/SKILL.md": {Data: []byte("---\nname: refunds\ndescription: How refunds work\n---\nRefund within 30 days.\n")}}
	tk, err := CreateToolkit(context.Background(), Options{Skills: skills})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tk.Get("skill"); !ok || len(tk.Tools()) != 1 || !strings.Contains(tk.SkillsPrompt(), "refunds") {
		t.Fatalf("tools %v, prompt %q", tk.Tools(), tk.SkillsPrompt())
	}
	if _, err := CreateToolkit(context.Background(), Options{Builtins: true}); err == nil || !strings.Contains(err.Error(), "toolnexus_tools") {
		t.Fatalf("asking for built-ins: %v", err)
	}
}
