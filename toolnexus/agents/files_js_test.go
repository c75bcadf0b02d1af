//go:build js

package agents

import (
	"errors"
	"testing"
)

// TestHomeSaysASandboxHasNoFiles: under js/wasm the persona home cannot
// read or write, and says so instead of failing obscurely.
func TestHomeSaysASandboxHasNoFiles(t *testing.T) {
	if soul, found := ComposeSoul("/home/rho"); soul != "" || len(found) != 0 {
		t.Errorf("ComposeSoul = %q, %v", soul, found)
	}
	res, err := MemoryTool("/home/rho").Execute(map[string]any{"action": "add", "text": "x"}, nil)
	if err != nil || !res.IsError || res.Output != "agents: write /home/rho/MEMORY.md: no file system under js/wasm" {
		t.Errorf("memory tool = %+v, %v", res, err)
	}
	if _, err := readFile("/home/rho/SOUL.md"); !errors.Is(err, errNoFiles) {
		t.Errorf("readFile err = %v", err)
	}
}
