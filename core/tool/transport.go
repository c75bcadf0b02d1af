package tool

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
)

// HTTPRequest is one outbound HTTP exchange, as core hands it to a Transport.
type HTTPRequest struct {
	Method string
	URL    string
	Header map[string]string
	Body   []byte
	// ReadHeaders names the reply headers the caller reads (lower-case);
	// nil means any. A transport may return only those: the JS bridge's
	// does, since copying every header of a provider's reply across the
	// boundary cost a model call more than reading the two it needs.
	ReadHeaders []string
}

// HTTPResponse is a Transport's answer. Header keys are lower-case. The
// caller closes Body. A Body that holds the whole reply already may say so
// with a method Bytes() []byte (the JS bridge's does): the client's loop
// then reads it without copying it.
type HTTPResponse struct {
	Status int
	Header map[string]string
	Body   io.ReadCloser
}

// ModelReplyHeaders are the reply headers core's loop reads of a model's
// reply (its requests' ReadHeaders).
var ModelReplyHeaders = []string{"content-type", "retry-after"}

// ReadReply reads a model's reply whole, at most limit bytes: a body that
// holds the reply already (Bytes, HTTPResponse) is taken without a copy.
func ReadReply(body io.Reader, limit int) ([]byte, error) {
	var data []byte
	if whole, ok := body.(interface{ Bytes() []byte }); ok {
		data = whole.Bytes()
	} else {
		var err error
		if data, err = io.ReadAll(io.LimitReader(body, int64(limit)+1)); err != nil {
			return nil, errors.New("read model reply: " + err.Error())
		}
	}
	if len(data) > limit {
		return nil, errors.New("model reply exceeds " + strconv.Itoa(limit) + " bytes")
	}
	return data, nil
}

// Transport performs one HTTP exchange. Native builds default to net/http;
// under js/wasm the JS bridge supplies one over fetch, so the wasm never
// links net/http. A Transport must honour ctx cancellation.
//
// A Transport that is done with req.Body by the time Do returns (it has
// copied it, as the JS bridge's fetch transport does) may say so with a
// method CopiesRequestBody(): the client's loop then writes a run's
// requests into one reused buffer. Without it every request gets its own.
type Transport interface {
	Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error)
}

// TransportFunc adapts a function to Transport.
type TransportFunc func(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error)

// Do calls f.
func (f TransportFunc) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	return f(orBackground(ctx), req)
}

// errNoTransport is what a client without a transport reports on js/wasm.
var errNoTransport = errors.New("core: no Transport: under js/wasm set ClientOptions.Transport (the JS bridge supplies one over fetch)")

// DefaultTransport is the transport a client uses when ClientOptions leaves
// it unset: net/http natively, none under js/wasm.
func DefaultTransport() Transport { return defaultTransport() }

// orBackground treats a nil ctx as context.Background().
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// IsHTTPURL reports whether u is an absolute http(s) URL with a host.
func IsHTTPURL(u string) bool {
	lower := strings.ToLower(u)
	for _, p := range []string{"http://", "https://"} {
		if strings.HasPrefix(lower, p) && len(u) > len(p) && u[len(p)] != '/' {
			return true
		}
	}
	return false
}
