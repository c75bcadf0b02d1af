//go:build js

package toolnexus

import (
	"context"
	"errors"
	"testing"
)

// mcpConfigFile: under js/wasm core reads no host files.
func mcpConfigFile(*testing.T, string) (string, bool) { return "", false }

// TestPortNoHostFilesUnderJS: the Go port's path-taking APIs say plainly
// that a js/wasm build reads no files of the host's.
func TestPortNoHostFilesUnderJS(t *testing.T) {
	if _, err := ParseMcpConfig("/etc/mcp.json"); !errors.Is(err, ErrNoHostFiles) {
		t.Fatalf("ParseMcpConfig(path) = %v", err)
	}
	if _, err := CreateToolkit(context.Background(), Options{Builtins: false, SkillsDir: []string{"/skills"}}); !errors.Is(err, ErrNoHostFiles) {
		t.Fatalf("SkillsDir = %v", err)
	}
	if src := LoadSkills("/skills"); len(src.Skills) != 0 {
		t.Fatalf("LoadSkills = %+v", src)
	}
}
