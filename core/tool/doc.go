// Package tool holds the types every part of toolnexus shares: Tool and
// its ToolResult and ToolContext, the suspension types Request and Answer
// with their helpers (Pending, AnswerOutput, …), the HTTP seam Transport,
// the built-ins' configuration, and the registry through which optional
// packages (core/builtins, core/skills, core/mcp) make themselves known to
// core when a program imports them, the way database/sql drivers do.
//
// It imports nothing of core: core and the packages around it import it.
// Programs use these types through core, which re-exports each of them
// (core.Tool is tool.Tool).
package tool
