//go:build js

package httptool

// lookupEnv finds nothing under js/wasm: a page or a Worker has no process
// environment of its own (and Node's must not leak into tool requests), so
// ${NAME} comes only from Variables there.
func lookupEnv(string) (string, bool) { return "", false }
