//go:build !(js && wasm)

package cfworker

import "github.com/toolnexus/wasm/worker"

// Options wires the handler for a native run (go run ./wasm/worker):
// settings from the process environment, core's net/http transport, and an
// in-memory spent-token store, agent-tree store, conversation store (CONVERSATIONS_KV) and
// file store (the built-ins' files).
func Options() worker.Options {
	store := worker.NewMemorySpentStore()
	trees := worker.NewMemoryTreeStore()
	convs := worker.NewMemoryKV()
	files := worker.NewMemoryBlobs()
	return worker.Options{
		Spent:         func() worker.SpentStore { return store },
		Trees:         func() worker.TreeStore { return trees },
		Conversations: func() worker.KVNamespace { return convs },
		Files:         func() worker.BlobStore { return files },
	}
}
