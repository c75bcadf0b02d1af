// Command worker is the Cloudflare Worker: the agent behind the HTTP API of
// package worker. Build it with `./build.sh worker`; natively, `go run
// ./wasm/worker` serves the same API on :9900 (PORT overrides).
package main

import (
	"github.com/syumai/workers"

	"github.com/toolnexus/wasm/worker"
)

func main() {
	workers.Serve(worker.NewHandler(worker.PlatformOptions()))
}
