//go:build js

package core

// HTTPClientOption is the type of ClientOptions.HTTPClient. Under js/wasm
// there is no net/http client (it would add megabytes, and outbound
// requests go through the host's fetch): the field exists so the struct is
// the same, but only nil fits it. Use ClientOptions.Transport.
type HTTPClientOption = *noHTTPClient

type noHTTPClient struct{}

func httpClientTransport(HTTPClientOption) Transport { return nil }
