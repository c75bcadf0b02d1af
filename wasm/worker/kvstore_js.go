//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/syumai/workers/cloudflare/kv"

	"github.com/toolnexus/wasm/worker"
)

// withConversationsKV backs the "conversation" field of /v1/run with the
// KV namespace bound as CONVERSATIONS_KV, through syumai/workers'
// cloudflare/kv. Without the binding the field is refused with 400.
func withConversationsKV(opts worker.Options) worker.Options {
	opts.Conversations = func() worker.KVNamespace {
		ns, err := kv.NewNamespace(worker.ConversationsBinding)
		if err != nil {
			return nil
		}
		return cfKV{ns}
	}
	return opts
}

// cfKV adapts kv.Namespace to worker.KVNamespace.
type cfKV struct{ ns *kv.Namespace }

// kvResult is one KV call's outcome, handed over from its goroutine.
type kvResult struct {
	value string
	err   error
}

// call runs a KV call, giving up when ctx ends (syumai's promise wait has
// no context; the abandoned call finishes on its own).
func call(ctx context.Context, fn func() (string, error)) (string, error) {
	ch := make(chan kvResult, 1)
	go func() {
		v, err := fn()
		ch <- kvResult{v, err}
	}()
	select {
	case r := <-ch:
		return r.value, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (c cfKV) Get(ctx context.Context, key string) (string, bool, error) {
	v, err := call(ctx, func() (string, error) { return c.ns.GetString(key, nil) })
	if err != nil {
		return "", false, fmt.Errorf("kv get: %w", err)
	}
	// GetString turns a missing key's null into Go's "<null>" (js.Value.String);
	// the store writes JSON objects only, so that text is never a real value.
	if v == "<null>" || v == "<undefined>" {
		return "", false, nil
	}
	return v, true, nil
}

func (c cfKV) Put(ctx context.Context, key, value string, ttl time.Duration) error {
	var opts *kv.PutOptions
	if ttl > 0 {
		opts = &kv.PutOptions{ExpirationTTL: int(ttl / time.Second)}
	}
	if _, err := call(ctx, func() (string, error) { return "", c.ns.PutString(key, value, opts) }); err != nil {
		return fmt.Errorf("kv put: %w", err)
	}
	return nil
}
