//go:build js && wasm

package worker

import (
	"strconv"
	"syscall/js"
)

// workersGetenv reads a Worker environment binding (a wrangler var or a
// secret). It returns "" for an unset name (cloudflare.Getenv would return
// the text "<undefined>"), and it formats number and boolean vars.
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
// or there is no Worker runtime context.
//
// The glue of syumai/workers hands each Go instance its request's
// {env, ctx} as the global "context" (runtime.mjs createRuntimeContext);
// this reads the same object cloudflare.GetBinding does, but lazily and
// without importing syumai's packages, whose init panics outside a Worker:
// so this package also loads, and its tests run, under Node.
func binding(name string) (js.Value, bool) {
	rc := js.Global().Get("context")
	if rc.Type() != js.TypeObject {
		return js.Undefined(), false
	}
	env := rc.Get("env")
	if env.Type() != js.TypeObject {
		return js.Undefined(), false
	}
	v := env.Get(name)
	return v, !v.IsUndefined() && !v.IsNull()
}

// boundObject is binding for a binding that must be an object (a KV
// namespace, an R2 bucket).
func boundObject(name string) (js.Value, bool) {
	v, ok := binding(name)
	return v, ok && v.Type() == js.TypeObject
}
