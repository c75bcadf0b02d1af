//go:build js

package agents

// readSoulFile never reads under js/wasm: the tab and the Worker have no
// file system, and linking os for it would cost the wasm ~30 KB.
func readSoulFile(string) (string, bool) { return "", false }
