//go:build !(js && wasm)

package worker

import "github.com/toolnexus/wasm/core"

// testTransport natively is core's own net/http transport, which reaches the
// scripted LLM over a real loopback socket.
func testTransport(*scriptedLLM) core.Transport { return nil }
