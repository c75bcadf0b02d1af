//go:build !js

package skills

// Native programs get the Go port's skill options with core/skills; a
// js/wasm program imports core/skills/port itself (see its doc).
import _ "github.com/toolnexus/wasm/core/skills/port"
