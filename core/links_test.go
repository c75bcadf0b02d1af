package core

// core's own tests run with every optional package linked, as a native
// program that imports them would (see the package doc).
import (
	_ "github.com/toolnexus/wasm/core/builtins"
	_ "github.com/toolnexus/wasm/core/mcp"
	_ "github.com/toolnexus/wasm/core/skills"
)

func memfs(t interface {
	Helper()
	Fatal(...any)
}, files map[string]string) *MemFS {
	t.Helper()
	m, err := NewMemFS(files)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
