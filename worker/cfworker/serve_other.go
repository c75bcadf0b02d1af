//go:build !(js && wasm)

package cfworker

import (
	"log"
	"net/http"
	"os"

	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// Serve natively serves handler on :9900 (PORT overrides), for trying the
// Worker's API without workerd.
func Serve(handler httpx.Handler) {
	port := os.Getenv("PORT")
	if port == "" {
		port = "9900"
	}
	log.Printf("worker: listening on http://localhost:%s", port)
	log.Fatal(http.ListenAndServe(":"+port, nethttp.Handler(handler)))
}
