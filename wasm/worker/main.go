// Command worker is the Cloudflare Worker: the agent behind the HTTP API of
// package worker and its products. Build it with `./build.sh worker` (its
// main module is worker/js/worker.mjs); natively, `go run ./wasm/worker`
// serves the same API on :9900 (PORT overrides).
package main

import (
	_ "github.com/toolnexus/wasm/core/a2a"      // A2A_AGENTS: remote A2A agents as tools
	_ "github.com/toolnexus/wasm/core/builtins" // the BUILTINS setting
	_ "github.com/toolnexus/wasm/core/mcp"      // MCP_CONFIG: MCP servers as tool sources
	_ "github.com/toolnexus/wasm/core/skills"   // the SKILLS setting
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/a2aserve"
	"github.com/toolnexus/wasm/worker/cfworker"
	"github.com/toolnexus/wasm/worker/gateway"
	"github.com/toolnexus/wasm/worker/mcpserver"
	"github.com/toolnexus/wasm/worker/runs"
	"github.com/toolnexus/wasm/worker/teams"
	"github.com/toolnexus/wasm/worker/uiproto"
)

func main() {
	cfworker.Serve(worker.NewHandler(cfworker.Options(), gateway.Mount, mcpserver.Mount, teams.Mount, uiproto.Mount, runs.Mount, a2aserve.Mount))
}
