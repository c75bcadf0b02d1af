//go:build !js || !wasm || toolnexus_tools || toolnexus_full || toolnexus_skills

package core

// SkillsLinked reports whether this build has the skills source. Native
// builds always do; a js/wasm build does with -tags toolnexus_skills,
// toolnexus_tools or toolnexus_full. The default js/wasm build leaves it
// out to keep the browser's download small (see tools_off.go).
const SkillsLinked = true
