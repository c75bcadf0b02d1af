//go:build !(js && wasm)

package workertest

import "github.com/toolnexus/wasm/core"

// Transport natively is core's own net/http transport, which reaches the
// scripted LLM over a real loopback socket.
func Transport(*ScriptedLLM) core.Transport { return nil }
