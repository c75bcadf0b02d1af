package core

import (
	"context"
	"testing"

	"github.com/toolnexus/wasm/internal/testmcp"
)

// fakeMCP is an MCP server in memory, reached through its Transport
// (internal/testmcp, shared with toolnexus's tests).
type fakeMCP = testmcp.Fake

// fakeToolkit connects a toolkit to f with cfg (nil: f.Config()).
func fakeToolkit(t *testing.T, f *fakeMCP, cfg []byte) *Toolkit {
	t.Helper()
	if cfg == nil {
		cfg = f.Config()
	}
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, MCP: cfg, Transport: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tk.Close() })
	return tk
}
