//go:build js && wasm

package cfworker

import (
	"errors"
	"net/http"
	"strings"
	"syscall/js"

	"github.com/toolnexus/wasm/worker"
)

// jsResponse is the handler's http.ResponseWriter: it keeps the body until
// the handler returns (one Response with the whole body) or flushes (a
// Response whose body is a stream fed by each later write).
type jsResponse struct {
	q           *jsRequest
	header      http.Header
	status      int
	wroteHeader bool
	buf         []byte
	streaming   bool
	sent        bool // the module has the Response
	gone        bool // the client went away: writes fail
}

var errClientGone = errors.New("worker: the client went away")

func (w *jsResponse) Header() http.Header { return w.header }

func (w *jsResponse) WriteHeader(code int) {
	if w.wroteHeader || code < 100 || code > 999 {
		return
	}
	w.wroteHeader = true
	w.status = code
}

func (w *jsResponse) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
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
		w.WriteHeader(http.StatusOK)
	}
	if w.q.enter() != nil {
		w.gone = true
		return
	}
	w.q.obj.Call("open", w.status, headerText(w.header))
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
	u8 := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(u8, p)
	if !w.q.obj.Call("push", u8).Truthy() {
		w.gone = true
		w.q.cancel()
	}
}

// close answers with the whole body, or ends the stream.
func (w *jsResponse) close() {
	if w.streaming {
		w.q.obj.Call("end", "")
		return
	}
	if w.sent || w.q.enter() != nil {
		return
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	body := js.Null()
	if len(w.buf) > 0 && !w.q.head {
		body = js.Global().Get("Uint8Array").New(len(w.buf))
		js.CopyBytesToJS(body, w.buf)
	}
	w.sent = true
	w.q.obj.Call("respond", w.status, headerText(w.header), body)
}

// fail answers a request whose handler panicked: a 500 when nothing was
// sent yet, else an error in the stream.
func (w *jsResponse) fail() {
	switch {
	case w.streaming:
		w.streaming = false
		w.q.obj.Call("end", "internal error")
	case !w.sent:
		w.header, w.buf, w.wroteHeader = http.Header{}, nil, false
		worker.WriteError(w, http.StatusInternalServerError, "internal", "internal error")
	}
}

// headerText encodes headers as "name\nvalue\n…" (worker.mjs headerList).
func headerText(h http.Header) string {
	var b strings.Builder
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
	return b.String()
}
