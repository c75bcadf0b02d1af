//go:build js && wasm

package workertest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"github.com/toolnexus/wasm/core"
)

// Transport under js/wasm (go_js_wasm_exec in Node) hands each request
// straight to the scripted LLM's handler: core has no default transport
// there, and Node's fetch cannot reach Go's in-process network. A request
// for any other host fails as an unreachable one would.
func Transport(llm *ScriptedLLM) core.Transport {
	return core.TransportFunc(func(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
		if !strings.HasPrefix(req.URL, llm.URL()+"/") {
			return nil, fmt.Errorf("test transport: connection refused: %s", req.URL)
		}
		r := httptest.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
		for k, v := range req.Header {
			r.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		llm.serve(rec, r)
		h := map[string]string{}
		for k, v := range rec.Header() {
			h[strings.ToLower(k)] = strings.Join(v, ", ")
		}
		return &core.HTTPResponse{Status: rec.Code, Header: h, Body: io.NopCloser(rec.Body)}, nil
	})
}
