package skills_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/toolnexus/wasm/core"
	_ "github.com/toolnexus/wasm/core/skills"
)

// TestIssue17PortSkillsLinking: native programs get the Go port's skill
// options with core/skills; under js/wasm they need core/skills/port,
// and without it CreateToolkit names that import.
func TestIssue17PortSkillsLinking(t *testing.T) {
	tk, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false, Skills: []core.SkillDef{{Name: "a", Description: "A"}}})
	if runtime.GOOS == "js" {
		if !errors.Is(err, core.ErrPortSkillsNotLinked) {
			t.Fatalf("js without core/skills/port: %v", err)
		}
		return
	}
	if err != nil || tk.SkillsPrompt() != core.SkillsPromptPreamble+"\n\n## Available Skills\n- **a**: A" {
		t.Fatalf("native: %v", err)
	}
}
