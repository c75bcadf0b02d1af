//go:build !js

package core

import (
	"net/http/httptest"
	"testing"

	"github.com/toolnexus/wasm/internal/testmcp"
)

// mockMCP is a small MCP server over HTTP (internal/testmcp, shared with
// toolnexus's tests).
type mockMCP = testmcp.Mock

var mockTools = testmcp.MockTools

func newMockMCP(t *testing.T, m *mockMCP) *httptest.Server { return testmcp.NewMockMCP(t, m) }

func mcpConfig(servers ...string) []byte { return testmcp.Config(servers...) }
