//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"strings"
	"sync"
	"syscall/js"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
)

// FetchTransport is core's Transport over a JS fetch function: the page's
// globalThis.fetch, a Worker's fetch, or any function with fetch's shape
// (the offline demo model is one). The response body is read as a stream.
type FetchTransport struct {
	fetch js.Value
	slot  *hostSlot // fetch's slot in the host (host.go), when there is one
	// mu guards last: the request meta the host parsed last for slot
	// (fetch_host.go meta). One transport serves concurrent runs.
	mu   sync.Mutex
	last struct {
		sent        bool
		url, method string
		header      map[string]string
		read        []string
	}
}

// NewFetchTransport returns a transport over fn, or over globalThis.fetch
// when fn is not a function.
func NewFetchTransport(fn js.Value) (*FetchTransport, error) {
	if !isFunc(fn) {
		fn = js.Global().Get("fetch")
	}
	if !isFunc(fn) {
		return nil, errors.New("no fetch function: pass options.fetch")
	}
	t := &FetchTransport{fetch: fn}
	if hostReady {
		t.slot = register(fn, "")
	}
	return t, nil
}

// CopiesRequestBody tells core's loop that Do is done with the request
// body when it returns: both ways copy it into JS before the fetch starts
// (core.Transport).
func (t *FetchTransport) CopiesRequestBody() {}

// Do performs one request. Cancelling ctx aborts the fetch.
func (t *FetchTransport) Do(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
	if hostReady {
		return t.doHost(ctx, req)
	}
	init := jsObject.New()
	init.Set("method", req.Method)
	headers := jsObject.New()
	for k, v := range req.Header {
		headers.Set(k, v)
	}
	init.Set("headers", headers)
	if len(req.Body) > 0 {
		body := jsUint8Array.New(len(req.Body))
		js.CopyBytesToJS(body, req.Body)
		init.Set("body", body)
	}
	abort := func() {}
	if !abortControllerMissing {
		ctrl := jsAbortController.New()
		init.Set("signal", ctrl.Get("signal"))
		abort = func() { ctrl.Call("abort") }
	}
	p, err := call(t.fetch, req.URL, init)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", req.URL, err)
	}
	res, err := await(ctx, p)
	if err != nil {
		if ctx.Err() != nil {
			abort()
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("fetch failed: %w", err)
	}
	if res.Type() != js.TypeObject || res.Get("status").Type() != js.TypeNumber {
		return nil, errors.New("fetch resolved to something that is not a Response")
	}
	out := &core.HTTPResponse{Status: res.Get("status").Int(), Header: responseHeaders(res)}
	// Event streams are read chunk by chunk as they arrive; any other body
	// is read whole, which costs one round trip through the event loop
	// instead of one per chunk plus one for the end.
	body := res.Get("body")
	if strings.HasPrefix(out.Header["content-type"], "text/event-stream") && body.Type() == js.TypeObject && isFunc(body.Get("getReader")) {
		out.Body = &streamBody{ctx: ctx, reader: body.Call("getReader"), abort: abort}
		return out, nil
	}
	buf, err := await(ctx, res.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("read response body: %w", err)
	}
	b := make([]byte, buf.Get("byteLength").Int())
	js.CopyBytesToGo(b, jsUint8Array.New(buf))
	out.Body = io.NopCloser(strings.NewReader(string(b)))
	return out, nil
}

// responseHeaders copies a Response's headers into a map with lower-case
// keys, in one crossing: JSON.stringify(Object.fromEntries(headers)).
func responseHeaders(res js.Value) map[string]string {
	h := map[string]string{}
	headers := res.Get("headers")
	if headers.Type() != js.TypeObject || !isFunc(headers.Get("entries")) {
		return h
	}
	text, err := jsonOf(jsObject.Call("fromEntries", headers))
	if err != nil {
		return h
	}
	gjson.Parse(text).ForEach(func(k, v gjson.Result) bool {
		h[strings.ToLower(k.String())] = v.String()
		return true
	})
	return h
}

// streamBody reads a ReadableStream chunk by chunk as the bytes arrive.
type streamBody struct {
	ctx    context.Context
	reader js.Value
	abort  func()
	buf    []byte
	err    error // sticky
}

func (s *streamBody) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		chunk, err := await(s.ctx, s.reader.Call("read"))
		if err != nil {
			if s.ctx.Err() != nil {
				s.abort()
			}
			s.err = fmt.Errorf("read response body: %w", err)
			return 0, s.err
		}
		if chunk.Get("done").Truthy() {
			s.err = io.EOF
			continue
		}
		v := chunk.Get("value")
		n := v.Get("byteLength").Int()
		if cap(s.buf) < n {
			s.buf = make([]byte, n)
		}
		s.buf = s.buf[:n]
		js.CopyBytesToGo(s.buf, v)
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

// ignoreRejection is a no-op rejection handler, never released.
var ignoreRejection = js.FuncOf(func(js.Value, []js.Value) any { return nil })

func (s *streamBody) Close() error {
	if s.err != io.EOF {
		// cancel() rejects when the fetch was aborted (a timeout mid-stream):
		// expected, and left unhandled it would end a Node host.
		if p, err := call(s.reader.Get("cancel").Call("bind", s.reader)); err == nil && p.Type() == js.TypeObject && isFunc(p.Get("catch")) {
			p.Call("catch", ignoreRejection)
		}
	}
	s.err = errors.New("read after close")
	return nil
}
