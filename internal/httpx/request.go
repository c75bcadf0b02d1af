package httpx

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strings"
)

// Request is one HTTP request a handler serves.
type Request struct {
	Method string
	// URL is the request's URL: absolute on Workers (the fetch API's), the
	// request line's path and query natively.
	URL    *url.URL
	Header Header
	// Body is the request's body; NoBody when there is none. The server
	// closes it.
	Body          io.ReadCloser
	ContentLength int64 // -1: unknown
	// Host is the Host header's value (natively; on Workers URL has it).
	Host string
	// RemoteAddr is the client's address as the platform says it.
	RemoteAddr string
	// TLS says the request came over TLS (natively; on Workers URL's
	// scheme says).
	TLS bool
	ctx context.Context
}

// Context is the request's context: it ends when the client goes away or
// the request is over. Never nil.
func (r *Request) Context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// WithContext returns a shallow copy of r with ctx as its context.
func (r *Request) WithContext(ctx context.Context) *Request {
	if ctx == nil {
		panic("httpx: nil context")
	}
	r2 := *r
	r2.ctx = ctx
	return &r2
}

// NewRequest returns a request for method and target (a URL, absolute or
// a path) with body (nil: none) and ctx (nil: Background).
func NewRequest(ctx context.Context, method, target string, body io.Reader) (*Request, error) {
	if method == "" {
		method = MethodGet
	}
	if !validMethod(method) {
		return nil, errors.New("httpx: invalid method " + method)
	}
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	rc, ok := body.(io.ReadCloser)
	if !ok && body != nil {
		rc = io.NopCloser(body)
	}
	if body == nil {
		rc = NoBody
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return &Request{Method: method, URL: u, Header: Header{}, Body: rc, ContentLength: -1, Host: u.Host, ctx: ctx}, nil
}

func validMethod(m string) bool {
	return m != "" && strings.IndexFunc(m, func(c rune) bool { return c > 0x7f || !tokenByte(byte(c)) }) < 0
}

// NoBody is a body with no bytes.
var NoBody = noBody{}

type noBody struct{}

func (noBody) Read([]byte) (int, error) { return 0, io.EOF }
func (noBody) Close() error             { return nil }
