package builtins

import (
	"strconv"
	"strings"
)

// Reading tags, attributes and character references for htmlToMarkdown.

func tagName(tag string) string {
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' {
			return tag[:i]
		}
	}
	return tag
}

// attr returns the value of the attribute name in a start tag's text.
func attr(tag, name string) string {
	lower := strings.ToLower(tag)
	from := 0
	for {
		k := strings.Index(lower[from:], name)
		if k < 0 {
			return ""
		}
		k += from
		from = k + len(name)
		if k == 0 || !isHTMLSpace(rune(lower[k-1])) {
			continue
		}
		rest := strings.TrimLeft(tag[from:], " \t\n\r")
		if !strings.HasPrefix(rest, "=") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t\n\r")
		if rest == "" {
			return ""
		}
		if q := rest[0]; q == '"' || q == '\'' {
			if e := strings.IndexByte(rest[1:], q); e >= 0 {
				return rest[1 : 1+e]
			}
			return rest[1:]
		}
		if e := strings.IndexAny(rest, " \t\n\r>"); e >= 0 {
			return rest[:e]
		}
		return rest
	}
}

// htmlEntities are the named references decoded, name then text. A static
// array, not a map: a map literal is init code, about 5 kB of wasm here.
var htmlEntities = [...][2]string{
	{"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", `"`}, {"apos", "'"}, {"nbsp", " "},
	{"mdash", "—"}, {"ndash", "–"}, {"hellip", "…"}, {"copy", "©"}, {"reg", "®"}, {"trade", "™"},
	{"lsquo", "‘"}, {"rsquo", "’"}, {"ldquo", "“"}, {"rdquo", "”"}, {"laquo", "«"}, {"raquo", "»"},
	{"middot", "·"}, {"bull", "•"}, {"times", "×"}, {"euro", "€"}, {"deg", "°"},
}

func htmlEntity(name string) (string, bool) {
	for _, e := range htmlEntities {
		if e[0] == name {
			return e[1], true
		}
	}
	return "", false
}

// decodeEntities replaces the common named and all numeric character
// references; an unknown one stays as written.
func decodeEntities(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		end := strings.IndexByte(s, ';')
		if end < 2 || end > 10 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		ref := s[1:end]
		if ref[0] == '#' {
			var n uint64
			var err error
			if len(ref) > 1 && (ref[1] == 'x' || ref[1] == 'X') {
				n, err = strconv.ParseUint(ref[2:], 16, 32)
			} else {
				n, err = strconv.ParseUint(ref[1:], 10, 32)
			}
			if err == nil && n > 0 && n <= 0x10FFFF {
				b.WriteRune(rune(n))
				s = s[end+1:]
				continue
			}
		} else if v, ok := htmlEntity(ref); ok {
			b.WriteString(v)
			s = s[end+1:]
			continue
		}
		b.WriteByte('&')
		s = s[1:]
	}
}
