//go:build !(js && wasm)

package worker

// PlatformOptions wires the handler for a native run (go run ./wasm/worker):
// settings from the process environment, core's net/http transport, and an
// in-memory spent-token store, agent-tree store, conversation store (CONVERSATIONS_KV) and
// file store (the built-ins' files).
func PlatformOptions() Options {
	store := NewMemorySpentStore()
	trees := NewMemoryTreeStore()
	convs := NewMemoryKV()
	files := NewMemoryBlobs()
	return Options{
		Spent:         func() SpentStore { return store },
		Trees:         func() TreeStore { return trees },
		Conversations: func() KVNamespace { return convs },
		Files:         func() BlobStore { return files },
	}
}
