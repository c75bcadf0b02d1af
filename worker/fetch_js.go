//go:build js && wasm

package worker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"syscall/js"

	"github.com/toolnexus/wasm/core"
)

// FetchTransport is core's Transport over the Worker's global fetch. It is
// what the model loop uses on Workers; tools that call out should use it too
// (never net/http, which would add TLS to the wasm and cannot dial out from
// a Worker anyway).
//
//   - Cancelling ctx aborts the fetch through an AbortController.
//   - The response body is read whole (Response.arrayBuffer) before Do
//     returns: core reads replies whole, and a buffered body cannot stall
//     the event loop.
func FetchTransport() core.Transport { return fetchTransport{} }

type fetchTransport struct{}

func (fetchTransport) Do(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	global := js.Global()
	init := global.Get("Object").New()
	init.Set("method", req.Method)
	headers := global.Get("Object").New()
	for k, v := range req.Header {
		headers.Set(k, v)
	}
	init.Set("headers", headers)
	if len(req.Body) > 0 {
		body := global.Get("Uint8Array").New(len(req.Body))
		js.CopyBytesToJS(body, req.Body)
		init.Set("body", body)
	}
	abort := global.Get("AbortController").New()
	init.Set("signal", abort.Get("signal"))
	stop := context.AfterFunc(ctx, func() { abort.Call("abort") })
	defer stop()

	var promise js.Value
	// Invoke, not global.Call: under syumai/workers js.Global() is a Proxy of
	// globalThis, and workerd refuses fetch called with that as this.
	if err := catch(func() { promise = global.Get("fetch").Invoke(req.URL, init) }); err != nil {
		return nil, fmt.Errorf("worker: fetch failed: %w", err)
	}
	resp, err := await(ctx, promise)
	if err != nil {
		return nil, fmt.Errorf("worker: fetch failed: %w", err)
	}
	out := &core.HTTPResponse{Status: resp.Get("status").Int(), Header: responseHeaders(resp.Get("headers"))}
	buf, err := await(ctx, resp.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("worker: read the reply: %w", err)
	}
	data := make([]byte, buf.Get("byteLength").Int())
	js.CopyBytesToGo(data, global.Get("Uint8Array").New(buf))
	out.Body = io.NopCloser(bytes.NewReader(data))
	return out, nil
}

// responseHeaders copies a Headers object into a map with lower-case keys
// (Headers already lower-cases them and joins repeated values).
func responseHeaders(h js.Value) map[string]string {
	out := map[string]string{}
	entries := js.Global().Get("Array").Call("from", h.Call("entries"))
	for i, n := 0, entries.Length(); i < n; i++ {
		e := entries.Index(i)
		out[strings.ToLower(e.Index(0).String())] = e.Index(1).String()
	}
	return out
}
