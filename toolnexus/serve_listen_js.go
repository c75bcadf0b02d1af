//go:build js

package toolnexus

import (
	"errors"
	"net"
)

// errNoListen is Serve's answer under js/wasm. Go's js/wasm net package
// listens on an in-process network that nothing outside can reach, so
// Serve refuses rather than serve nobody.
var errNoListen = errors.New("a sandbox (browser, Worker, WebAssembly) cannot listen on a port: serve from a native build; the Worker serves its toolkit over MCP at POST /mcp")

func listen(string) (net.Listener, error) { return nil, errNoListen }
