package httpx

import (
	"io"
	"strconv"
)

// ResponseWriter answers a request: headers first, then WriteHeader (or
// the first Write, which sends 200), then the body.
type ResponseWriter interface {
	Header() Header
	Write([]byte) (int, error)
	WriteHeader(statusCode int)
}

// Flusher is a ResponseWriter that can send what was written so far (a
// stream of server-sent events).
type Flusher interface {
	Flush()
}

// Flush sends what w holds, when w, or a writer it wraps (Unwrap), is a
// Flusher; it reports whether one was.
func Flush(w ResponseWriter) bool {
	for w != nil {
		if f, ok := w.(Flusher); ok {
			f.Flush()
			return true
		}
		u, ok := w.(interface{ Unwrap() ResponseWriter })
		if !ok {
			return false
		}
		w = u.Unwrap()
	}
	return false
}

// Handler serves requests.
type Handler interface {
	ServeHTTP(ResponseWriter, *Request)
}

// HandlerFunc is a function that is a Handler.
type HandlerFunc func(ResponseWriter, *Request)

func (f HandlerFunc) ServeHTTP(w ResponseWriter, r *Request) { f(w, r) }

// Error answers with code and msg as plain text.
func Error(w ResponseWriter, msg string, code int) {
	h := w.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	io.WriteString(w, msg+"\n")
}

// MaxBytesError is MaxBytesReader's error for a body over its limit.
type MaxBytesError struct {
	Limit int64
}

func (e *MaxBytesError) Error() string {
	return "httpx: request body too large (over " + strconv.FormatInt(e.Limit, 10) + " bytes)"
}

// MaxBytesReader is body read no further than n bytes: a read past them
// fails with a *MaxBytesError. w is where the answer goes (kept for
// net/http's signature).
func MaxBytesReader(w ResponseWriter, body io.ReadCloser, n int64) io.ReadCloser {
	if n < 0 {
		n = 0
	}
	return &maxBytesReader{r: body, left: n, limit: n}
}

type maxBytesReader struct {
	r     io.ReadCloser
	left  int64
	limit int64
	err   error
}

func (l *maxBytesReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	// One byte more than is left tells a body that ends at the limit from
	// one that goes past it.
	if int64(len(p))-1 > l.left {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	if int64(n) <= l.left {
		l.left -= int64(n)
		l.err = err
		return n, err
	}
	n = int(l.left)
	l.left = 0
	l.err = &MaxBytesError{Limit: l.limit}
	return n, l.err
}

func (l *maxBytesReader) Close() error { return l.r.Close() }
