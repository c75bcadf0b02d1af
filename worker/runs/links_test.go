package runs

// The Worker's tests link what its main (wasm/worker) links.
import (
	_ "github.com/toolnexus/wasm/core/builtins"
	_ "github.com/toolnexus/wasm/core/mcp"
	_ "github.com/toolnexus/wasm/core/skills"
)
