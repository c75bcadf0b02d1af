//go:build js && wasm

package cfworker

import (
	"fmt"
	"runtime"

	"github.com/toolnexus/wasm/jsbridge"
)

// logf is a request's Options.Logf: one console.log of the line, through
// the module's server (log(id, line)), in whatever context runs. Go's log
// package reached console.log through os.Stderr and the file-system shim: a
// js.FuncOf callback and several JS calls per line.
func (q *jsRequest) logf(format string, args ...any) {
	line, whole := "", false
	if format == "%s" && len(args) == 1 {
		line, whole = args[0].(string) // a line composed already (worker.Handler.ServeHTTP's)
	}
	if !whole {
		line = fmt.Sprintf(format, args...)
	}
	srv.js.Call("log", jsbridge.StringPtr(line), len(line))
	runtime.KeepAlive(line)
}
