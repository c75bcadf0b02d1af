//go:build js && wasm

package cfworker

import (
	"context"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/worker"
)

// mcpMailboxGlobal names the Map on globalThis that keeps answers in the
// isolate's memory: it outlives a Go instance that dies.
const mcpMailboxGlobal = "__toolnexusMcpMailbox"

// jsMailbox keeps answers in the isolate's memory and, when the STATE_KV
// namespace is bound, in KV too, for an answer that lands on another
// isolate (KV reads may lag behind writes made elsewhere). q is the
// request it serves (nil outside a Worker request: memory only).
type jsMailbox struct {
	kv js.Value
	q  *jsRequest
}

func mcpMailbox(ctx context.Context) worker.Mailbox {
	b := jsMailbox{kv: js.Undefined(), q: requestOf(ctx)}
	if b.q != nil {
		if ns, ok := b.q.boundObject(StateKVBinding); ok {
			b.kv = ns
		}
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
	if m.Get("size").Int() >= worker.MailboxCap {
		m.Call("clear")
	}
	m.Call("set", key, string(value))
	if b.kv.IsUndefined() {
		return nil
	}
	opts := js.Global().Get("Object").New()
	opts.Set("expirationTtl", int(worker.KVMinTTL/time.Second))
	_, err := b.q.jsCall(ctx, "kv put", b.kv, "put", "mcp:"+key, string(value), opts)
	return err
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
	v, err := b.q.jsCall(ctx, "kv get", b.kv, "get", "mcp:"+key)
	if err != nil {
		return nil, false, err
	}
	if v.Type() != js.TypeString {
		return nil, false, nil
	}
	return []byte(v.String()), true, nil
}
