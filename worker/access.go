package worker

import (
	"crypto/sha256"
	"crypto/subtle"
	"strconv"
	"strings"

	"github.com/toolnexus/wasm/internal/httpx"
)

// originAllowed reports whether a browser origin may call the API.
func (a Access) originAllowed(origin string) bool {
	origin = strings.TrimRight(origin, "/")
	for _, o := range a.AllowedOrigins {
		if o == "*" || strings.EqualFold(o, origin) {
			return true
		}
	}
	return false
}

// applyCORS handles the Origin header of any request. A request from a
// browser origin that is not allowed is refused with 403 before it can
// reach the model (a "simple" cross-site POST skips the preflight, so
// leaving out the CORS headers alone would not stop it from running). It
// reports whether the request may go on.
func (a Access) applyCORS(w httpx.ResponseWriter, r *httpx.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	w.Header().Add("Vary", "Origin")
	if strings.EqualFold(strings.TrimRight(origin, "/"), OriginOf(r)) {
		// The Worker's own pages (the approval page, worker/runs).
		return true
	}
	if !a.originAllowed(origin) {
		writeError(w, httpx.StatusForbidden, "origin_not_allowed", "origin "+QuoteClip(origin)+" is not in ALLOWED_ORIGINS")
		return false
	}
	w.Header().Set("Access-Control-Allow-Origin", origin)
	return true
}

// OriginOf is the scheme and host the request reached the Worker at.
func OriginOf(r *httpx.Request) string {
	if r.URL.IsAbs() {
		return r.URL.Scheme + "://" + r.URL.Host
	}
	scheme := "http"
	if r.TLS {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// preflight answers a CORS preflight for a route that allows methods.
func preflight(w httpx.ResponseWriter, r *httpx.Request, methods string) {
	h := w.Header()
	h.Set("Allow", methods)
	if r.Header.Get("Origin") != "" {
		h.Set("Access-Control-Allow-Methods", methods)
		// Mcp-* are the streamable-HTTP MCP headers a browser client sends to /mcp.
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
		h.Set("Access-Control-Max-Age", "600")
	}
	w.WriteHeader(httpx.StatusNoContent)
}

// authorized checks the bearer token when API_TOKEN is set. The scheme
// name is case-insensitive (RFC 9110 §11.1: "bearer", "BEARER" work). It
// compares digests in constant time, so neither the token nor its length
// leaks through timing.
func (a Access) authorized(r *httpx.Request) bool {
	if a.APIToken == "" {
		return true
	}
	got, ok := bearerToken(r.Header.Get("Authorization"))
	if !ok {
		return false
	}
	want := sha256.Sum256([]byte(a.APIToken))
	have := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(want[:], have[:]) == 1
}

// bearerToken returns the credentials of an Authorization header value
// whose scheme is Bearer in any case, separated by spaces or tabs.
func bearerToken(header string) (string, bool) {
	header = strings.TrimSpace(header)
	i := strings.IndexAny(header, " \t")
	if i < 0 || !strings.EqualFold(header[:i], "Bearer") {
		return "", false
	}
	token := strings.TrimSpace(header[i:])
	return token, token != ""
}

// QuoteClip quotes a client-supplied string for an error message, cut to a
// length that keeps the message readable.
func QuoteClip(s string) string {
	const max = 80
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strconv.Quote(s)
}
