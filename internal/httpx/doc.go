// Package httpx is the Worker's HTTP request and response: what its
// handlers (package worker, its products and internal/mcpserve) read and
// write. It stands in for net/http's, whose types alone link crypto/tls,
// crypto/x509 and their elliptic curves and big numbers into a wasm build
// (about 700 kB raw of the Worker's app.wasm, and their package
// initialisers run in every fresh isolate) although a Worker speaks HTTP
// through the fetch API. The names are net/http's, for the subset the
// Worker uses: Request, Header, ResponseWriter, Flusher, Handler, the
// status and method constants, MaxBytesReader.
//
// On Workers the platform glue (worker/cfworker) makes a Request from the
// fetch API's and answers with a Response. Natively, package nethttp
// serves a Handler from net/http and converts its types, so that handlers
// are tested with net/http/httptest as before.
package httpx
