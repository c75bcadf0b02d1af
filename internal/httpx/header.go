package httpx

// Header is an HTTP header, keyed as net/http keys it (each key in its
// canonical form: "Content-Type"), so that a net/http Header converts to
// one as it is.
type Header map[string][]string

// Get returns the first value of key ("" when there is none).
func (h Header) Get(key string) string {
	if v := h[CanonicalHeaderKey(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Values returns all values of key.
func (h Header) Values(key string) []string { return h[CanonicalHeaderKey(key)] }

// Set replaces the values of key with value.
func (h Header) Set(key, value string) { h[CanonicalHeaderKey(key)] = []string{value} }

// Add appends value to the values of key.
func (h Header) Add(key, value string) {
	k := CanonicalHeaderKey(key)
	h[k] = append(h[k], value)
}

// Del removes key.
func (h Header) Del(key string) { delete(h, CanonicalHeaderKey(key)) }

// Clone returns a copy of h (nil for nil).
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	out := make(Header, len(h))
	for k, v := range h {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// CanonicalHeaderKey is key with its first letter and each letter after a
// hyphen in upper case and the others in lower case ("content-type" →
// "Content-Type"), as net/textproto's CanonicalMIMEHeaderKey has it; a key
// with a space or a byte outside ASCII letters, digits and token
// punctuation is returned as it is.
func CanonicalHeaderKey(key string) string {
	// One pass that checks and canonicalises, writing only from the first
	// byte that changes: workerd hands every name in lower case, and this
	// runs for each header of each request.
	var buf [64]byte
	var b []byte
	upper := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c >= 0x80 || tokenMask[c>>6]&(1<<(c&63)) == 0 {
			return key
		}
		d := c
		if upper && 'a' <= c && c <= 'z' {
			d = c - 'a' + 'A'
		} else if !upper && 'A' <= c && c <= 'Z' {
			d = c - 'A' + 'a'
		}
		if d != c && b == nil {
			b = append(buf[:0], key...)
		}
		if b != nil {
			b[i] = d
		}
		upper = c == '-'
	}
	if b == nil {
		return key
	}
	return string(b)
}

// tokenMask marks the bytes that may be in a header name (RFC 9110 tchar:
// ASCII letters, digits and !#$%&'*+-.^_`|~), bit c&63 of word c>>6. A
// table rather than a function: the Worker's build does not inline our
// packages, and a call per byte of each header name showed in its profile.
var tokenMask = [2]uint64{0x03ff6cfa00000000, 0x57ffffffc7fffffe}

// tokenByte reports whether c may be in a header name.
func tokenByte(c byte) bool { return c < 0x80 && tokenMask[c>>6]&(1<<(c&63)) != 0 }
