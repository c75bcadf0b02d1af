//go:build !js || !wasm || toolnexus_tools || toolnexus_full

package core

// BuiltinsLinked reports whether this build has the built-in tools: always
// natively; in js/wasm with -tags toolnexus_tools or toolnexus_full (not
// with toolnexus_skills, which the Worker uses: it has skills, and its
// built-ins are off).
const BuiltinsLinked = true
