//go:build !(js && wasm)

package main

import "github.com/toolnexus/wasm/worker"

// withConversationsKV keeps PlatformOptions' in-memory conversation store
// for a native run.
func withConversationsKV(opts worker.Options) worker.Options { return opts }
