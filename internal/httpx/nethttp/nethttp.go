// Package nethttp serves the Worker's handlers (httpx) from net/http and
// converts between the two packages' types: how `go run ./wasm/worker`
// listens natively, how the Go port's Serve mounts the MCP server, and how
// the handlers are tested with net/http/httptest. No wasm build links it
// (it would link crypto/tls, the reason httpx exists).
package nethttp

import (
	"net/http"

	"github.com/toolnexus/wasm/internal/httpx"
)

// Handler serves h from net/http.
func Handler(h httpx.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(Writer(w), Request(r)) })
}

// Request is r as an httpx.Request: the same URL, header map, body and
// context.
func Request(r *http.Request) *httpx.Request {
	out := &httpx.Request{
		Method: r.Method, URL: r.URL, Header: httpx.Header(r.Header), Body: r.Body,
		ContentLength: r.ContentLength, Host: r.Host, RemoteAddr: r.RemoteAddr, TLS: r.TLS != nil,
	}
	if out.Body == nil {
		out.Body = httpx.NoBody
	}
	return out.WithContext(r.Context())
}

// Writer is w as an httpx.ResponseWriter: its header map, and Flush where
// w (or what it wraps) can flush.
func Writer(w http.ResponseWriter) httpx.ResponseWriter { return writer{w} }

type writer struct{ w http.ResponseWriter }

func (w writer) Header() httpx.Header        { return httpx.Header(w.w.Header()) }
func (w writer) Write(b []byte) (int, error) { return w.w.Write(b) }
func (w writer) WriteHeader(code int)        { w.w.WriteHeader(code) }
func (w writer) Flush()                      { http.NewResponseController(w.w).Flush() }
