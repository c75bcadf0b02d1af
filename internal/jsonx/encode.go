// Package jsonx encodes the plain values the agent loop handles on every
// turn — strings, maps, slices, numbers, raw messages — without going
// through encoding/json. Under js/wasm encoding/json's per-call setup (an
// Encoder, a type-cache lookup keyed by interface) was the loop's largest
// cost; anything that is not a plain value still goes to encoding/json.
package jsonx

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Marshal returns the JSON encoding of v, without HTML escaping.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// Append appends the JSON encoding of v to dst.
func Append(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return AppendString(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return appendOther(dst, v) // encoding/json's error
		}
		if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
			return appendOther(dst, v) // exponent form: leave it to encoding/json
		}
		return strconv.AppendFloat(dst, x, 'f', -1, 64), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case json.RawMessage:
		if !json.Valid(x) {
			return appendOther(dst, v)
		}
		return append(dst, x...), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(AppendString(dst, k), ':')
			var err error
			if dst, err = Append(dst, x[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = Append(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	}
	return appendOther(dst, v)
}

// appendOther encodes anything else with encoding/json (no HTML escaping).
func appendOther(dst []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// AppendString appends s as a JSON string literal: the escapes
// encoding/json uses, except that <, > and & stay as they are (the bytes go
// to models and JS, not into HTML). Invalid UTF-8 becomes U+FFFD.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
