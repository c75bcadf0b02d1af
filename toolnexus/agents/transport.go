package agents

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/toolnexus/wasm/core"
)

// roundTripTransport carries the kernel's provider requests over the
// port's http.RoundTripper (Options.Transport), so a scripted RoundTripper
// drives the runtime with no network.
type roundTripTransport struct{ rt http.RoundTripper }

func (t roundTripTransport) Do(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return nil, fmt.Errorf("agents: transport: %w", err)
	}
	for k, v := range req.Header {
		hreq.Header.Set(k, v)
	}
	resp, err := t.rt.RoundTrip(hreq)
	if err != nil {
		return nil, fmt.Errorf("agents: transport: %w", err)
	}
	// The kernel reads lower-case header keys, one value each.
	h := make(map[string]string, len(resp.Header))
	for k, vs := range resp.Header {
		h[strings.ToLower(k)] = strings.Join(vs, ", ")
	}
	body := resp.Body
	if body == nil {
		body = io.NopCloser(bytes.NewReader(nil))
	}
	return &core.HTTPResponse{Status: resp.StatusCode, Header: h, Body: body}, nil
}
