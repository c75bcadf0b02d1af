package httptool

import (
	"strings"

	"github.com/toolnexus/wasm/core/tool"
)

// Hand-written on purpose: net/url pulls net/netip, unique and weak into the
// wasm build (about 60 KB gzip) for the three things HTTP tools need here.

// escapeComponent percent-encodes s for use as one path segment or query
// value: everything but RFC 3986's unreserved characters is escaped.
func escapeComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// httpScheme reports whether u is an absolute http(s) URL with a host.
func httpScheme(u string) bool { return tool.IsHTTPURL(u) }

// appendQuery adds key=value pairs (already in order) to u, keeping any
// query it has and any #fragment after it.
func appendQuery(u string, pairs [][2]string) string {
	if len(pairs) == 0 {
		return u
	}
	frag := ""
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u, frag = u[:i], u[i:]
	}
	var b strings.Builder
	b.WriteString(u)
	sep := byte('?')
	if strings.IndexByte(u, '?') >= 0 {
		sep = '&'
		if strings.HasSuffix(u, "?") || strings.HasSuffix(u, "&") {
			sep = 0
		}
	}
	for _, p := range pairs {
		if sep != 0 {
			b.WriteByte(sep)
		}
		sep = '&'
		b.WriteString(escapeComponent(p[0]))
		b.WriteByte('=')
		b.WriteString(escapeComponent(p[1]))
	}
	b.WriteString(frag)
	return b.String()
}
