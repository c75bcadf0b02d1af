//go:build js && wasm

package worker

import (
	"strconv"
	"syscall/js"

	"github.com/syumai/workers/cloudflare"
)

// workersGetenv reads a Worker environment binding (a wrangler var or a
// secret). Unlike cloudflare.Getenv it returns "" for an unset name (rather
// than the text "<undefined>"), and it formats number and boolean vars.
func workersGetenv(name string) string {
	v, ok := binding(name)
	if !ok {
		return ""
	}
	switch v.Type() {
	case js.TypeString:
		return v.String()
	case js.TypeNumber:
		return strconv.FormatFloat(v.Float(), 'f', -1, 64)
	case js.TypeBoolean:
		return strconv.FormatBool(v.Bool())
	}
	return ""
}

// binding returns the env binding of that name, or false when it is unset
// or no runtime context exists.
func binding(name string) (v js.Value, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = js.Undefined(), false
		}
	}()
	v = cloudflare.GetBinding(name)
	return v, !v.IsUndefined() && !v.IsNull()
}
