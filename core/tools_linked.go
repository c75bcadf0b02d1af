package core

// ToolsLinked reports whether this build has both the skills source and
// the built-in tools (see SkillsLinked and BuiltinsLinked).
const ToolsLinked = SkillsLinked && BuiltinsLinked
