package worker

import (
	"mime"
	"strings"

	"github.com/toolnexus/wasm/internal/httpx"
)

// jsonContentType reports whether a request body's Content-Type says JSON
// in UTF-8: application/json, with parameters (a charset other than UTF-8
// is refused, as JSON is UTF-8 by RFC 8259). An absent Content-Type is
// refused too: every JSON client sends one, and a browser can send a body
// without one in a CORS "simple" request, which skips the preflight.
func jsonContentType(ct string) bool {
	if strings.TrimSpace(ct) == "" {
		return false
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return false
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return false
	}
	return true
}

// unsupportedMediaType answers a JSON route's body with another type.
func unsupportedMediaType(w httpx.ResponseWriter, ct string) {
	w.Header().Set("Accept-Post", "application/json")
	got := "no Content-Type"
	if strings.TrimSpace(ct) != "" {
		got = "Content-Type " + QuoteClip(ct)
	}
	writeError(w, httpx.StatusUnsupportedMediaType, "unsupported_media_type", "this route takes a JSON body: send Content-Type: application/json (got "+got+")")
}
