package a2aserve

// The Worker's tests link what its main (wasm/worker) links.
import (
	_ "github.com/toolnexus/wasm/core/a2a"
	_ "github.com/toolnexus/wasm/core/builtins"
	_ "github.com/toolnexus/wasm/core/mcp"
	_ "github.com/toolnexus/wasm/core/skills"
)
