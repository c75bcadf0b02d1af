//go:build !js

package tool

import "net/http"

// HTTPClientTransport is a Transport over c (native builds only: under
// js/wasm outbound requests go through the host's fetch).
func HTTPClientTransport(c *http.Client) Transport { return httpTransport{client: c} }
