//go:build js && wasm

package cfworker

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/internal/httpx"
)

// serveTest answers the test-only routes, on when TOOLNEXUS_TEST_HOOKS=1:
//
//	GET /__test/instance   {"instance", "goInstance", "served", "inFlight", "hops",
//	                        "js": {refs, requests, timers, memory}} (memory: the
//	                        wasm memory's bytes)
//	GET /__test/gc         runs Go's collector (and its finalizers, which
//	                       release the JS values Go held), then answers Go's
//	                       memory: {"go": {heapAlloc, heapInuse, heapSys, sys,
//	                       numGC}, "js": {…as above}}
//	GET /__test/panic      a panic inside the request (answered 500)
//	GET /__test/exit       a panic outside any request: the instance dies
//	GET /__test/sleep?ms=N&id=X   answers {"slept": N, "id": "X"} after N ms
func (s *server) serveTest(w httpx.ResponseWriter, r *httpx.Request, q *jsRequest) {
	answer := func(body string) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}
	switch r.URL.Path {
	case "/__test/instance":
		stats := "{}"
		if s.stats.Type() == js.TypeFunction {
			stats = js.Global().Get("JSON").Call("stringify", s.stats.Invoke()).String()
		}
		answer(fmt.Sprintf(`{"instance":%d,"goInstance":%q,"served":%d,"inFlight":%d,"hops":%d,"js":%s}`,
			q.instance, s.goInstanceID(), s.served, len(s.requests), s.hops, stats))
	case "/__test/gc":
		runtime.GC()
		// Finalizers run in their own goroutine: let it release the JS
		// values the collection freed before counting what is left.
		time.Sleep(time.Millisecond)
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		stats := "{}"
		if s.stats.Type() == js.TypeFunction {
			stats = js.Global().Get("JSON").Call("stringify", s.stats.Invoke()).String()
		}
		answer(fmt.Sprintf(`{"go":{"heapAlloc":%d,"heapInuse":%d,"heapSys":%d,"sys":%d,"numGC":%d},"js":%s}`,
			m.HeapAlloc, m.HeapInuse, m.HeapSys, m.Sys, m.NumGC, stats))
	case "/__test/panic":
		panic("test: a panicking request")
	case "/__test/exit":
		go func() { panic("test: the instance dies") }()
		time.Sleep(time.Second)
		answer(`{"status":"still alive"}`)
	case "/__test/sleep":
		var ms int
		var id string
		for _, kv := range strings.Split(r.URL.RawQuery, "&") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "ms":
				ms, _ = strconv.Atoi(v)
			case "id":
				id = v
			}
		}
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-r.Context().Done():
		}
		answer(fmt.Sprintf(`{"slept":%d,"id":%q}`, ms, id))
	default:
		w.WriteHeader(httpx.StatusNotFound)
		answer(`{"error":{"code":"not_found","message":"no such test route"}}`)
	}
}
