//go:build js && wasm

package worker

import (
	"context"
	"syscall/js"
	"time"
)

// kvNamespace is a KVNamespace over a Workers KV binding, for the
// conversation store.
type kvNamespace struct{ ns js.Value }

// kvConversations returns the namespace bound as name, or nil when the
// Worker has no such binding.
func kvConversations(name string) func() KVNamespace {
	return func() KVNamespace {
		if ns, ok := boundObject(name); ok {
			return kvNamespace{ns}
		}
		return nil
	}
}

func (k kvNamespace) Get(ctx context.Context, key string) (string, bool, error) {
	v, err := jsCall(ctx, "kv get", k.ns, "get", key)
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
	_, err := jsCall(ctx, "kv put", k.ns, "put", args...)
	return err
}
