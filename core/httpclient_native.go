//go:build !js

package core

import (
	"net/http"

	"github.com/toolnexus/wasm/core/tool"
)

// HTTPClientOption is the type of ClientOptions.HTTPClient: a *http.Client
// on native builds (as in the Go port).
type HTTPClientOption = *http.Client

// httpClientTransport carries provider requests over c.
func httpClientTransport(c HTTPClientOption) Transport {
	if c == nil {
		return nil
	}
	return tool.HTTPClientTransport(c)
}
