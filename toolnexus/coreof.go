package toolnexus

import (
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/toolnexus/internal/coreof"
)

// toolnexus/agents reaches the core values of these types through
// toolnexus/internal/coreof (see there why).
func init() {
	coreof.Hooks = func(h any) *core.Hooks { return coreHooks(h.(*Hooks)) }
	coreof.Client = func(c any) *core.Client { return coreClient(c.(*Client)) }
	coreof.Toolkit = func(tk any) *core.Toolkit { return coreToolkit(tk.(*Toolkit)) }
}
