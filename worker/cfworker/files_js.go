//go:build js && wasm

package cfworker

import (
	"context"
	"fmt"
	"syscall/js"

	"github.com/toolnexus/wasm/worker"
)

// filesBinding returns the store of the built-ins' file system for q: the
// R2 bucket bound as FILES_R2, else the KV namespace bound as FILES_KV,
// else nil.
func (q *jsRequest) filesBinding() worker.BlobStore {
	if b, ok := q.boundObject(worker.FilesR2Binding); ok {
		return jsBlobs{store: b, r2: true, op: "r2 ", q: q}
	}
	if ns, ok := q.boundObject(worker.FilesKVBinding); ok {
		return jsBlobs{store: ns, op: "kv ", q: q}
	}
	return nil
}

// toJSBytes copies data into a new Uint8Array.
func toJSBytes(data []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	return u8
}

// fromArrayBuffer copies an ArrayBuffer's bytes into Go.
func fromArrayBuffer(ab js.Value) []byte {
	u8 := js.Global().Get("Uint8Array").New(ab)
	out := make([]byte, u8.Get("length").Int())
	js.CopyBytesToGo(out, u8)
	return out
}

// jsBlobs is a BlobStore over a Workers KV namespace or an R2 bucket: put,
// delete and list({prefix, cursor}) are called alike; get and a list page's
// fields differ.
type jsBlobs struct {
	store js.Value
	r2    bool
	op    string // "kv " or "r2 ", for errors
	q     *jsRequest
}

func (b jsBlobs) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if b.r2 {
		obj, err := b.q.jsCall(ctx, "r2 get", b.store, "get", key)
		if err != nil || obj.IsNull() || obj.IsUndefined() {
			return nil, false, err
		}
		ab, err := b.q.jsCall(ctx, "r2 read", obj, "arrayBuffer")
		if err != nil {
			return nil, false, err
		}
		return fromArrayBuffer(ab), true, nil
	}
	opts := js.Global().Get("Object").New()
	opts.Set("type", "arrayBuffer")
	v, err := b.q.jsCall(ctx, "kv get", b.store, "get", key, opts)
	if err != nil || v.IsNull() || v.IsUndefined() {
		return nil, false, err
	}
	return fromArrayBuffer(v), true, nil
}

func (b jsBlobs) Put(ctx context.Context, key string, data []byte) error {
	_, err := b.q.jsCall(ctx, b.op+"put", b.store, "put", key, toJSBytes(data))
	return err
}

func (b jsBlobs) Delete(ctx context.Context, key string) error {
	_, err := b.q.jsCall(ctx, b.op+"delete", b.store, "delete", key)
	return err
}

// List pages through list(): up to 1000 keys a page, in "keys" ({name})
// until list_complete on KV, in "objects" ({key}) while truncated on R2.
func (b jsBlobs) List(ctx context.Context, prefix string, limit int) ([]string, error) {
	if b.r2 {
		return listPages(ctx, b.q, "r2 list", b.store, prefix, limit, "objects", "key", func(page js.Value) bool {
			return !field(page, "truncated").Truthy()
		})
	}
	return listPages(ctx, b.q, "kv list", b.store, prefix, limit, "keys", "name", func(page js.Value) bool {
		return field(page, "list_complete").Truthy()
	})
}

// listPages calls store.list({prefix, cursor}) until done(page) or no
// cursor: KV and R2 differ only in the names of the page's list
// (items) and of an entry's key (name).
func listPages(ctx context.Context, q *jsRequest, op string, store js.Value, prefix string, limit int, items, name string, done func(page js.Value) bool) ([]string, error) {
	var out []string
	cursor := ""
	for {
		opts := js.Global().Get("Object").New()
		opts.Set("prefix", prefix)
		if cursor != "" {
			opts.Set("cursor", cursor)
		}
		page, err := q.jsCall(ctx, op, store, "list", opts)
		if err != nil {
			return nil, err
		}
		list := field(page, items)
		if list.Type() != js.TypeObject {
			return nil, fmt.Errorf("%s: the answer has no %s", op, items)
		}
		for i, n := 0, list.Get("length").Int(); i < n; i++ {
			if len(out) == limit {
				return nil, fmt.Errorf("%s: more than %d keys start with %q", op, limit, prefix)
			}
			out = append(out, field(list.Index(i), name).String())
		}
		if done(page) {
			return out, nil
		}
		if cursor = stringOr(field(page, "cursor")); cursor == "" {
			return out, nil
		}
	}
}

// field reads v[name], undefined when v is not an object (Get would panic).
func field(v js.Value, name string) js.Value {
	if v.Type() != js.TypeObject {
		return js.Undefined()
	}
	return v.Get(name)
}

// stringOr returns v when it is a string, else "".
func stringOr(v js.Value) string {
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}
