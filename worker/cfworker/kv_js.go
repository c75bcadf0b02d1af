//go:build js && wasm

package cfworker

import (
	"context"
	"syscall/js"
	"time"
)

// kvNamespace is a KVNamespace over a Workers KV binding, for the
// conversation store; q is the request it serves.
type kvNamespace struct {
	ns js.Value
	q  *jsRequest
}

func (k kvNamespace) Get(ctx context.Context, key string) (string, bool, error) {
	v, err := k.q.jsCall(ctx, "kv get", k.ns, "get", key)
	if err != nil || v.IsNull() || v.IsUndefined() {
		return "", false, err
	}
	return v.String(), true, nil
}

func (k kvNamespace) Put(ctx context.Context, key, value string, ttl time.Duration) error {
	args := []any{key, value}
	if ttl > 0 {
		opts := js.Global().Get("Object").New()
		opts.Set("expirationTtl", int(ttl/time.Second))
		args = append(args, opts)
	}
	_, err := k.q.jsCall(ctx, "kv put", k.ns, "put", args...)
	return err
}
