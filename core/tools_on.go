//go:build !js || !wasm || toolnexus_tools || toolnexus_full

package core

// ToolsLinked reports whether this build has the skills source and the
// built-in tools. Native builds always do; a js/wasm build does with
// -tags toolnexus_tools (or toolnexus_full). The default js/wasm build leaves
// them out to keep the browser's download small (see tools_off.go).
const ToolsLinked = true
