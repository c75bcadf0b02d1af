# scripts/mcp.sh — remote MCP end-to-end tests. Sourced by build.sh, which sets
# ROOT and DIST and runs with `set -euo pipefail`; run_tests calls test_mcp.
#
# tests/mcp.test.mjs starts a server built with the official MCP SDK
# (tests/mcp-server.mjs) on 127.0.0.1 and drives it from Go natively, from the
# browser bundle in Node and in chromium, and from the Worker on workerd; it
# also points the SDK's client at the Worker's POST /mcp. The Go unit tests
# (core/mcp*_test.go, worker/mcpserver/mcp_test.go) run in test_go.

# ensure_mcp_sdk installs the pinned test packages when an older
# tests/node_modules predates @modelcontextprotocol/sdk.
ensure_mcp_sdk() {
  if [ -d "$ROOT/tests/node_modules/@modelcontextprotocol/sdk" ]; then return 0; fi
  echo "== installing npm test packages (for @modelcontextprotocol/sdk)"
  (cd "$ROOT/tests" && npm ci --no-audit --no-fund --loglevel=error)
}

test_mcp() {
  ensure_mcp_sdk
  build_browser || return 1
  build_worker
  echo "== MCP tests: Go, Node, chromium, workerd against the official SDK (tests/mcp.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 600 node --test --test-force-exit --test-concurrency=1 mcp.test.mjs)
}
