package core

// ToolsLinked reports whether this program links both the skills source
// and the built-in tools (see SkillsLinked and BuiltinsLinked).
func ToolsLinked() bool { return SkillsLinked() && BuiltinsLinked() }
