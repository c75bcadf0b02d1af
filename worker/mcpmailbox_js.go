//go:build js && wasm

package worker

import (
	"context"
	"fmt"
	"syscall/js"
	"time"
)

// mcpMailboxGlobal names the Map on globalThis that the Go instances of one
// isolate share (syumai/workers starts one instance per request, but they
// all see the isolate's globalThis).
const mcpMailboxGlobal = "__toolnexusMcpMailbox"

// jsMailbox keeps answers in the isolate's memory and, when the STATE_KV
// namespace is bound, in KV too, for an answer that lands on another
// isolate (KV reads may lag behind writes made elsewhere).
type jsMailbox struct{ kv js.Value }

func mcpMailbox(getenv func(string) string) mailbox {
	b := jsMailbox{kv: js.Undefined()}
	if ns, ok := boundObject(StateKVBinding); ok {
		b.kv = ns
	}
	return b
}

func isolateMap() js.Value {
	m := js.Global().Get(mcpMailboxGlobal)
	if m.Type() != js.TypeObject {
		m = js.Global().Get("Map").New()
		js.Global().Set(mcpMailboxGlobal, m)
	}
	return m
}

func (b jsMailbox) Put(ctx context.Context, key string, value []byte) error {
	m := isolateMap()
	if m.Get("size").Int() >= mailboxCap {
		m.Call("clear")
	}
	m.Call("set", key, string(value))
	if b.kv.IsUndefined() {
		return nil
	}
	opts := js.Global().Get("Object").New()
	opts.Set("expirationTtl", int(kvMinTTL/time.Second))
	var p js.Value
	if err := catch(func() { p = b.kv.Call("put", "mcp:"+key, string(value), opts) }); err != nil {
		return fmt.Errorf("kv put: %w", err)
	}
	if _, err := await(ctx, p); err != nil {
		return fmt.Errorf("kv put: %w", err)
	}
	return nil
}

func (b jsMailbox) Take(ctx context.Context, key string) ([]byte, bool, error) {
	m := isolateMap()
	if v := m.Call("get", key); v.Type() == js.TypeString {
		m.Call("delete", key)
		return []byte(v.String()), true, nil
	}
	if b.kv.IsUndefined() {
		return nil, false, nil
	}
	var p js.Value
	if err := catch(func() { p = b.kv.Call("get", "mcp:"+key) }); err != nil {
		return nil, false, fmt.Errorf("kv get: %w", err)
	}
	v, err := await(ctx, p)
	if err != nil {
		return nil, false, fmt.Errorf("kv get: %w", err)
	}
	if v.Type() != js.TypeString {
		return nil, false, nil
	}
	return []byte(v.String()), true, nil
}
