// Command worker is the Cloudflare Worker: the agent behind the HTTP API of
// package worker. Build it with `./build.sh worker` (its main module is
// worker/js/worker.mjs); natively, `go run ./wasm/worker` serves the same
// API on :9900 (PORT overrides).
package main

import "github.com/toolnexus/wasm/worker"

func main() {
	worker.Serve(worker.NewHandler(worker.PlatformOptions()))
}
