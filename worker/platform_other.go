//go:build !(js && wasm)

package worker

// PlatformOptions wires the handler for a native run (go run ./wasm/worker):
// settings from the process environment, core's net/http transport, and an
// in-memory spent-token store and conversation store (CONVERSATIONS_KV).
func PlatformOptions() Options {
	store := NewMemorySpentStore()
	convs := NewMemoryKV()
	return Options{Spent: func() SpentStore { return store }, Conversations: func() KVNamespace { return convs }}
}
