//go:build js

package tool

import "context"

// defaultTransport under js/wasm is a transport that reports it is missing:
// core cannot reach fetch without syscall/js, which it never imports.
func defaultTransport() Transport {
	return TransportFunc(func(context.Context, *HTTPRequest) (*HTTPResponse, error) {
		return nil, errNoTransport
	})
}
