//go:build js && wasm && !toolnexus_tools && !toolnexus_full && !toolnexus_skills

package core

// SkillsLinked is false in the default js/wasm build. Code guarded by this
// constant (and by BuiltinsLinked) is dropped by the compiler: skills and
// the built-in tools together cost about 116 KB of gzip'd wasm.
const SkillsLinked = false
