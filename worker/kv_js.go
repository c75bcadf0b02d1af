//go:build js && wasm

package worker

import (
	"context"
	"syscall/js"
	"time"
)

// kvSpentMinTTL is the shortest expiration Workers KV accepts.
const kvSpentMinTTL = 60

// kvSpentStore is a SpentStore over a Workers KV namespace: one key
// "spent:<state id>" per resumed token, expiring with the token. q is the
// request it serves.
type kvSpentStore struct {
	ns js.Value
	q  *jsRequest
}

func (s kvSpentStore) Spend(ctx context.Context, id string, until time.Time) (bool, error) {
	key := "spent:" + id
	v, err := s.q.jsCall(ctx, "kv get", s.ns, "get", key)
	if err != nil {
		return false, err
	}
	if !v.IsNull() && !v.IsUndefined() {
		return false, nil
	}
	ttl := int(time.Until(until).Seconds()) + 1
	if ttl < kvSpentMinTTL {
		ttl = kvSpentMinTTL
	}
	opts := js.Global().Get("Object").New()
	opts.Set("expirationTtl", ttl)
	if _, err := s.q.jsCall(ctx, "kv put", s.ns, "put", key, "1", opts); err != nil {
		return false, err
	}
	return true, nil
}

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
