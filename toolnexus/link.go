package toolnexus

// The Go port has its built-ins, skills and MCP client always available;
// core links each only when a program imports it.
import (
	_ "github.com/toolnexus/wasm/core/builtins"
	_ "github.com/toolnexus/wasm/core/mcp"
	_ "github.com/toolnexus/wasm/core/skills"
)
