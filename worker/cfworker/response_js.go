//go:build js && wasm

package cfworker

import (
	"bytes"
	"errors"
	"runtime"
	"strings"

	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/jsbridge"
	"github.com/toolnexus/wasm/worker"
)

// jsResponse is the handler's httpx.ResponseWriter: it keeps the body until
// the handler returns (one Response with the whole body) or flushes (a
// Response whose body is a stream fed by each later write).
type jsResponse struct {
	q           *jsRequest
	header      httpx.Header
	status      int
	wroteHeader bool
	buf         []byte
	streaming   bool
	sent        bool // the module has the Response
	gone        bool // the client went away: writes fail
}

var errClientGone = errors.New("worker: the client went away")

func (w *jsResponse) Header() httpx.Header { return w.header }

func (w *jsResponse) WriteHeader(code int) {
	if w.wroteHeader || code < 100 || code > 999 {
		return
	}
	w.wroteHeader = true
	w.status = code
}

func (w *jsResponse) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(httpx.StatusOK)
	}
	if w.gone {
		return 0, errClientGone
	}
	if w.streaming {
		w.push(p)
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) > streamAfter {
		w.Flush()
	}
	return len(p), nil
}

// Flush sends the status and headers now and turns the body into a stream.
func (w *jsResponse) Flush() {
	if w.streaming || w.sent || w.gone {
		return
	}
	if !w.wroteHeader {
		w.WriteHeader(httpx.StatusOK)
	}
	if w.q.enter() != nil {
		w.gone = true
		return
	}
	h := headerText(w.header)
	srv.js.Call("open", w.q.id, w.status, jsbridge.Ptr(h), len(h))
	runtime.KeepAlive(h)
	w.streaming, w.sent = true, true
	if len(w.buf) > 0 {
		w.push(w.buf)
		w.buf = nil
	}
}

// push hands one chunk to the response stream. The stream is a plain JS
// ReadableStream the module made: enqueueing from any context is safe.
// When the stream is gone (the client left) the request is cancelled.
func (w *jsResponse) push(p []byte) {
	ok := srv.js.Call("push", w.q.id, jsbridge.Ptr(p), len(p)).Truthy()
	runtime.KeepAlive(p)
	if !ok {
		w.gone = true
		w.q.cancel()
	}
}

// close answers with the whole body, or ends the stream.
func (w *jsResponse) close() {
	if w.streaming {
		srv.js.Call("end", w.q.id, 0, 0)
		return
	}
	if w.sent || w.q.enter() != nil {
		return
	}
	if !w.wroteHeader {
		w.WriteHeader(httpx.StatusOK)
	}
	body := w.buf
	w.sent = true
	h := headerText(w.header)
	// bp -1: no body (null), as for HEAD; else the body's pointer.
	bp := -1
	if len(body) > 0 && !w.q.head {
		bp = jsbridge.Ptr(body)
	}
	srv.js.Call("respond", w.q.id, w.status, jsbridge.Ptr(h), len(h), bp, len(body))
	runtime.KeepAlive(h)
	runtime.KeepAlive(body)
}

// fail answers a request whose handler panicked: a 500 when nothing was
// sent yet, else an error in the stream.
func (w *jsResponse) fail() {
	switch {
	case w.streaming:
		w.streaming = false
		msg := "internal error"
		srv.js.Call("end", w.q.id, jsbridge.StringPtr(msg), len(msg))
	case !w.sent:
		w.header, w.buf, w.wroteHeader = httpx.Header{}, nil, false
		worker.WriteError(w, httpx.StatusInternalServerError, "internal", "internal error")
	}
}

// headerText encodes headers as "name\nvalue\n…" (worker.mjs headerList).
func headerText(h httpx.Header) []byte {
	var b bytes.Buffer
	for k, vs := range h {
		for _, v := range vs {
			b.WriteString(k)
			b.WriteByte('\n')
			if strings.ContainsAny(v, "\r\n") {
				v = strings.Map(func(r rune) rune {
					if r == '\r' || r == '\n' {
						return ' '
					}
					return r
				}, v)
			}
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
