//go:build !js

package tool

import (
	"bytes"
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"net/http"
	"strings"
)

// httpTransport is the native Transport over net/http.
type httpTransport struct{ client *http.Client }

func defaultTransport() Transport { return httpTransport{client: http.DefaultClient} }

func (t httpTransport) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	hreq, err := http.NewRequestWithContext(orBackground(ctx), req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return nil, fmt.Errorf("core: build request: %w", err)
	}
	for k, v := range req.Header {
		hreq.Header.Set(k, v)
	}
	resp, err := t.client.Do(hreq)
	if err != nil {
		return nil, err
	}
	h := make(map[string]string, len(resp.Header))
	for k, vs := range resp.Header {
		h[strings.ToLower(k)] = strings.Join(vs, ", ")
	}
	return &HTTPResponse{Status: resp.StatusCode, Header: h, Body: resp.Body}, nil
}
