//go:build !(js && wasm)

package worker

// PlatformOptions wires the handler for a native run (go run ./wasm/worker):
// settings from the process environment, core's net/http transport, and an
// in-memory spent-token store.
func PlatformOptions() Options {
	store := NewMemorySpentStore()
	return Options{Spent: func() SpentStore { return store }}
}
