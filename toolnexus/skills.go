package toolnexus

import "github.com/toolnexus/wasm/toolnexus/internal/portskills"

// fileURL is how the skill tool names the base directory of a skill found
// on disk: a file:// URL.
func fileURL(dir string) string { return portskills.FileURL(dir) }
