//go:build js && wasm

package jsbridge

import (
	"bytes"
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"runtime"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// doHost is FetchTransport.Do through the host (host.go): one call that
// starts the fetch and one outcome holding the status, the headers and the
// whole body (or a stream to read chunk by chunk).
func (t *FetchTransport) doHost(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
	// An AbortController only when something can cancel the request.
	abortable := 0
	if ctx.Done() != nil {
		abortable = 1
	}
	op := newHostOp()
	t.mu.Lock()
	meta := t.meta(req)
	// metaN -1: the host reuses the meta it parsed last for this slot.
	metaN := -1
	if meta != nil {
		metaN = len(meta)
	}
	err := op.start("fetch", t.slot.n, bytesPtr(meta), metaN, bytesPtr(req.Body), len(req.Body), abortable)
	t.mu.Unlock()
	if err != nil {
		return nil, err
	}
	r, err := op.wait(ctx, func() { host.Call("abort", op.id) })
	runtime.KeepAlive(t)
	if err != nil {
		return nil, err
	}
	head, body := op.take(r)
	switch r.code {
	case -2:
		return nil, fmt.Errorf("fetch %s: %s", req.URL, head)
	case -1:
		return nil, fmt.Errorf("fetch failed: %s", head)
	}
	out := &core.HTTPResponse{Status: int(r.code), Header: map[string]string{}}
	gjson.ParseBytes(head).ForEach(func(k, v gjson.Result) bool {
		out.Header[k.String()] = v.String()
		return true
	})
	if r.len1 < 0 {
		out.Body = &hostStream{ctx: ctx, id: op.id}
		return out, nil
	}
	out.Body = &wholeBody{Reader: bytes.NewReader(body), b: body}
	return out, nil
}

// meta returns req's fetch meta for the host, {"url", "method", "headers",
// "read"?}, or nil when it is the meta the host has last parsed for this
// transport's slot: a model's requests differ in their bodies only, and
// decoding and parsing the same text for every call showed in Chromium's
// profiles of a turn. Called with t.mu held, up to the host's call.
func (t *FetchTransport) meta(req *core.HTTPRequest) []byte {
	if t.last.sent && t.last.url == req.URL && t.last.method == req.Method && sameStrings(t.last.read, req.ReadHeaders) && sameHeaders(t.last.header, req.Header) {
		return nil
	}
	t.last.sent, t.last.url, t.last.method, t.last.read = true, req.URL, req.Method, req.ReadHeaders
	t.last.header = make(map[string]string, len(req.Header))
	meta := append(make([]byte, 0, 128+len(req.URL)), `{"url":`...)
	meta = jsonx.AppendString(meta, req.URL)
	meta = append(meta, `,"method":`...)
	meta = jsonx.AppendString(meta, req.Method)
	meta = append(meta, `,"headers":{`...)
	first := true
	for k, v := range req.Header {
		t.last.header[k] = v
		if !first {
			meta = append(meta, ',')
		}
		first = false
		meta = jsonx.AppendString(meta, k)
		meta = append(meta, ':')
		meta = jsonx.AppendString(meta, v)
	}
	meta = append(meta, '}')
	if req.ReadHeaders != nil {
		meta = append(meta, `,"read":[`...)
		for i, h := range req.ReadHeaders {
			if i > 0 {
				meta = append(meta, ',')
			}
			meta = jsonx.AppendString(meta, h)
		}
		meta = append(meta, ']')
	}
	return append(meta, '}')
}

func sameHeaders(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range b {
		if w, ok := a[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func sameStrings(a, b []string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wholeBody is a reply's body read whole by the host. Bytes hands it to a
// caller that wants it all (core's loop, HTTPResponse) without a copy.
type wholeBody struct {
	*bytes.Reader
	b []byte
}

func (b *wholeBody) Bytes() []byte { return b.b }

func (b *wholeBody) Close() error { return nil }

// hostStream reads a streamed body through the host, chunk by chunk as the
// bytes arrive.
type hostStream struct {
	ctx context.Context
	id  int32 // the fetch's id, which names the stream
	buf []byte
	err error // sticky
}

func (s *hostStream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		op := newHostOp()
		if err := op.start("read", s.id); err != nil {
			s.err = err
			return 0, err
		}
		r, err := op.wait(s.ctx, func() { host.Call("close", s.id) })
		if err != nil {
			s.err = fmt.Errorf("read response body: %w", err)
			return 0, s.err
		}
		chunk, _ := op.take(r)
		switch r.code {
		case 1:
			s.buf = chunk
		case 0:
			s.err = io.EOF
		default:
			s.err = fmt.Errorf("read response body: %s", chunk)
		}
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func (s *hostStream) Close() error {
	if s.err != io.EOF {
		host.Call("close", s.id) // cancels the reader and aborts the fetch
	}
	s.err = errors.New("read after close")
	return nil
}
