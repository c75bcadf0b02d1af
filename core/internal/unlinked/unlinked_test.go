package unlinked

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolnexus/wasm/core"
)

func TestBuiltinsNotLinked(t *testing.T) {
	if core.BuiltinsLinked() {
		t.Fatal("core/builtins is linked into a test that never imports it")
	}
	tk, err := core.CreateToolkit(context.Background(), core.Options{})
	if err != nil || len(tk.Tools()) != 0 {
		t.Fatalf("default Options without built-ins: %d tools, %v", len(tk.Tools()), err)
	}
	for _, b := range []any{true, map[string]bool{"read": true}, core.BuiltinsConfig{}} {
		_, err := core.CreateToolkit(context.Background(), core.Options{Builtins: b})
		if !errors.Is(err, core.ErrBuiltinsNotLinked) || !strings.Contains(err.Error(), `import _ "github.com/toolnexus/wasm/core/builtins"`) {
			t.Errorf("Builtins %#v: err = %v, want ErrBuiltinsNotLinked naming the import", b, err)
		}
	}
	if got := core.BuiltinTools(core.BuiltinsConfig{}); got != nil {
		t.Errorf("BuiltinTools without the package = %d tools, want nil", len(got))
	}
	if _, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false}); err != nil {
		t.Errorf("Builtins false: %v", err)
	}
}

func TestSkillsNotLinked(t *testing.T) {
	if core.SkillsLinked() {
		t.Fatal("core/skills is linked into a test that never imports it")
	}
	skills := fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\n---\nbody")}}
	_, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false, SkillsFS: skills})
	if !errors.Is(err, core.ErrSkillsNotLinked) || !strings.Contains(err.Error(), `import _ "github.com/toolnexus/wasm/core/skills"`) {
		t.Errorf("Skills without core/skills: err = %v, want ErrSkillsNotLinked naming the import", err)
	}
	if _, err := core.LoadSkillsFS(skills); !errors.Is(err, core.ErrSkillsNotLinked) {
		t.Errorf("LoadSkills without core/skills: err = %v", err)
	}
}

func TestMCPNotLinked(t *testing.T) {
	if core.MCPLinked() {
		t.Fatal("core/mcp is linked into a test that never imports it")
	}
	cfg := []byte(`{"mcpServers": {"docs": {"url": "https://example.com/mcp"}}}`)
	_, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false, MCP: cfg})
	if !errors.Is(err, core.ErrMCPNotLinked) || !strings.Contains(err.Error(), `import _ "github.com/toolnexus/wasm/core/mcp"`) {
		t.Errorf("MCP without core/mcp: err = %v, want ErrMCPNotLinked naming the import", err)
	}
	if _, err := core.ParseMCPConfig(cfg); !errors.Is(err, core.ErrMCPNotLinked) {
		t.Errorf("ParseMCPConfig without core/mcp: err = %v", err)
	}
	if tk, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false}); err != nil || len(tk.MCPServers()) != 0 {
		t.Errorf("no MCP configuration: %v", err)
	}
}
