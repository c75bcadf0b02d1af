package toolnexus

import (
	"strings"
	"unicode/utf8"
)

// ExpandEnvHeaders returns a new map with every ${NAME} in the header
// values replaced by the environment variable NAME ("" when it is unset),
// as the Go port's does; nil gives nil. NAME is a letter or '_' followed by
// letters, digits or '_'; anything else is left as written.
//
// Native builds read the process environment. Under js/wasm there is none
// (the browser and the Worker have no process environment, and Node's is
// not read), so every ${NAME} becomes "": pass values through
// Options.Variables or HTTPToolOptions.Variables there instead.
func ExpandEnvHeaders(headers map[string]string) map[string]string {
	if headers == nil {
		return nil
	}
	out := make(map[string]string, len(headers))
	for k, v := range headers {
		out[k] = expandEnvNames(v, func(name string) string {
			s, _ := lookupEnv(name)
			return s
		})
	}
	return out
}

// expandEnvNames replaces each well-formed ${NAME} in s with value(NAME).
func expandEnvNames(s string, value func(name string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 || !envName(s[i+2:i+2+j]) {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(value(s[i+2 : i+2+j]))
		s = s[i+2+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// envName reports whether s is [A-Za-z_][A-Za-z0-9_]*.
func envName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Sanitize replaces every character outside [a-zA-Z0-9_-] with '_', as the
// Go port (and opencode) do to make a tool name from a server or tool name.
func Sanitize(value string) string {
	b := []byte(value)
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		c := b[0]
		if c < 0x80 {
			if c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
				out = append(out, c)
			} else {
				out = append(out, '_')
			}
			b = b[1:]
			continue
		}
		// One '_' per character (an invalid byte counts as one).
		_, size := utf8.DecodeRune(b)
		out = append(out, '_')
		b = b[size:]
	}
	return string(out)
}
