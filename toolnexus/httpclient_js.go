//go:build js

package toolnexus

import (
	"context"
	"errors"
	"net/http"

	"github.com/toolnexus/wasm/core"
)

// errNoHTTPClient is a run's error for ClientOptions.HTTPClient under
// js/wasm, where outbound HTTP goes through the host's fetch.
var errNoHTTPClient = errors.New("toolnexus: ClientOptions.HTTPClient is not available under js/wasm: set Transport")

func httpClientTransport(*http.Client) core.Transport {
	return core.TransportFunc(func(context.Context, *core.HTTPRequest) (*core.HTTPResponse, error) {
		return nil, errNoHTTPClient
	})
}
