// Command syumai-hello is the benchmark's baseline Worker: a hello-world
// built the standard way with github.com/syumai/workers (its generated
// shim starts a fresh Go instance for every request). ./build.sh bench
// builds it beside the real Worker and compares their CPU per request.
package main

import (
	"net/http"

	"github.com/syumai/workers"
)

func main() {
	workers.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("hello"))
	}))
}
