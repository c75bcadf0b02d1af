package jsonx

import (
	"reflect"
	"strings"
)

// jsonTag is tag.Get("json"), read here because reflect.StructTag.Lookup
// unquotes the value with strconv.Unquote, which nothing else in the
// browser build links: with this reader in its place the browser build is
// 10.9 kB raw and 3.1 kB gzip -9 smaller (measured at 40e3ba5). Tags are
// `key:"value"` pairs separated by spaces, as reflect documents; a tag
// that does not parse, or a json value with an escape other than \" and
// \\, reads as no json key — names and options never need one.
func jsonTag(tag reflect.StructTag) string {
	s := string(tag)
	for {
		for len(s) > 0 && s[0] == ' ' {
			s = s[1:]
		}
		colon := strings.IndexByte(s, ':')
		if colon <= 0 || colon+1 >= len(s) || s[colon+1] != '"' || !validKey(s[:colon]) {
			return ""
		}
		key := s[:colon]
		s = s[colon+2:]
		end := -1
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' {
				i++
				continue
			}
			if s[i] == '"' {
				end = i
				break
			}
		}
		if end < 0 {
			return ""
		}
		value := s[:end]
		s = s[end+1:]
		if key != "json" {
			continue
		}
		return unescapeTag(value)
	}
}

// validKey reports whether k can be a tag key: no space, quote, colon or
// control character.
func validKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c <= ' ' || c == '"' || c == ':' || c == 0x7f {
			return false
		}
	}
	return true
}

// unescapeTag undoes \" and \\ in a tag value; any other escape, or a
// newline (which strconv.Unquote refuses too), makes the value unreadable
// here, and it reads as empty.
func unescapeTag(v string) string {
	if strings.IndexByte(v, '\\') < 0 && strings.IndexByte(v, '\n') < 0 {
		return v
	}
	b := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' {
			i++
			if i >= len(v) || v[i] != '"' && v[i] != '\\' {
				return ""
			}
			c = v[i]
		} else if c == '\n' {
			return ""
		}
		b = append(b, c)
	}
	return string(b)
}
