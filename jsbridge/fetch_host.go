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
	meta := append(make([]byte, 0, 128+len(req.URL)), `{"url":`...)
	meta = jsonx.AppendString(meta, req.URL)
	meta = append(meta, `,"method":`...)
	meta = jsonx.AppendString(meta, req.Method)
	meta = append(meta, `,"headers":{`...)
	first := true
	for k, v := range req.Header {
		if !first {
			meta = append(meta, ',')
		}
		first = false
		meta = jsonx.AppendString(meta, k)
		meta = append(meta, ':')
		meta = jsonx.AppendString(meta, v)
	}
	meta = append(meta, "}}"...)
	// An AbortController only when something can cancel the request.
	abortable := 0
	if ctx.Done() != nil {
		abortable = 1
	}
	op := newHostOp()
	if err := op.start("fetch", t.slot.n, bytesPtr(meta), len(meta), bytesPtr(req.Body), len(req.Body), abortable); err != nil {
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
	out.Body = io.NopCloser(bytes.NewReader(body))
	return out, nil
}

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
