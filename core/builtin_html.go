package core

import (
	"strconv"
	"strings"
)

// htmlToMarkdown turns an HTML page into readable text: scripts, styles and
// other non-content elements are dropped, blocks become paragraphs, and with
// markdown set headings, lists, links, emphasis and code keep their markdown
// form. It is a small scanner, not a full HTML parser (which would cost the
// wasm build far more): odd markup degrades to plain text, never to a panic.
func htmlToMarkdown(src string, markdown bool) string {
	var w mdWriter
	w.md = markdown
	skip := 0 // depth inside elements whose content is not shown
	var hrefs []string
	type list struct {
		ordered bool
		n       int
	}
	var lists []list
	for i := 0; i < len(src); {
		if src[i] != '<' {
			j := strings.IndexByte(src[i:], '<')
			if j < 0 {
				j = len(src) - i
			}
			if skip == 0 {
				w.text(decodeEntities(src[i : i+j]))
			}
			i += j
			continue
		}
		if strings.HasPrefix(src[i:], "<!--") {
			end := strings.Index(src[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		end := strings.IndexByte(src[i:], '>')
		if end < 0 {
			if skip == 0 {
				w.text(decodeEntities(src[i:]))
			}
			break
		}
		tag := src[i+1 : i+end]
		i += end + 1
		closing := strings.HasPrefix(tag, "/")
		name := strings.ToLower(tagName(strings.TrimPrefix(tag, "/")))
		switch name {
		case "script", "style", "head", "noscript", "svg", "template", "iframe", "object", "canvas", "select", "button":
			if closing {
				if skip > 0 {
					skip--
				}
			} else if !strings.HasSuffix(tag, "/") {
				skip++
				if name == "script" || name == "style" {
					// Their content may hold '<': jump to the end tag.
					if k := strings.Index(strings.ToLower(src[i:]), "</"+name); k >= 0 {
						i += k
					}
				}
			}
			continue
		}
		if skip > 0 {
			continue
		}
		switch name {
		case "h1", "h2", "h3", "h4", "h5", "h6":
			w.block()
			if !closing && markdown {
				w.raw("###### "[6-int(name[1]-'0'):]) // h1 → "# ", h6 → "###### "
			}
		case "p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "blockquote", "table", "form", "figure", "dl", "address":
			w.block()
		case "ul", "ol":
			w.line()
			if closing {
				if len(lists) > 0 {
					lists = lists[:len(lists)-1]
				}
				if len(lists) == 0 {
					w.block()
				}
			} else {
				lists = append(lists, list{ordered: name == "ol"})
			}
		case "li":
			if closing {
				continue
			}
			w.line()
			for range len(lists) - 1 { // indent nested items
				w.raw("  ")
			}
			if len(lists) > 0 && lists[len(lists)-1].ordered {
				lists[len(lists)-1].n++
				w.raw(strconv.Itoa(lists[len(lists)-1].n) + ". ")
			} else {
				w.raw("- ")
			}
		case "tr", "dt", "dd", "caption":
			w.line()
		case "td", "th":
			if !closing {
				w.raw(" ")
			}
		case "br":
			w.raw("\n")
		case "hr":
			w.block()
			if markdown {
				w.raw("---")
			}
			w.block()
		case "pre":
			if closing {
				if w.pre == 0 {
					continue
				}
				w.pre--
				if markdown {
					w.trimNewlines()
					w.raw("\n```")
				}
				w.block()
				continue
			}
			w.block()
			if markdown {
				w.raw("```\n")
			}
			w.pre++
		case "code", "kbd", "samp":
			if markdown && w.pre == 0 {
				w.raw("`")
			}
		case "strong", "b":
			if markdown {
				w.raw("**")
			}
		case "em", "i":
			if markdown {
				w.raw("*")
			}
		case "a":
			if !markdown {
				continue
			}
			if closing {
				if len(hrefs) > 0 {
					h := hrefs[len(hrefs)-1]
					hrefs = hrefs[:len(hrefs)-1]
					if h != "" {
						w.raw("](" + h + ")")
					}
				}
			} else {
				h := attr(tag, "href")
				if strings.HasPrefix(strings.ToLower(h), "javascript:") {
					h = ""
				}
				hrefs = append(hrefs, h)
				if h != "" {
					w.raw("[")
				}
			}
		case "img":
			alt := decodeEntities(attr(tag, "alt"))
			if alt == "" {
				continue
			}
			if markdown {
				w.raw("![" + alt + "](" + attr(tag, "src") + ")")
			} else {
				w.text(alt)
			}
		}
	}
	return w.String()
}

// mdWriter collects text, collapsing whitespace outside <pre>.
type mdWriter struct {
	b     strings.Builder
	md    bool
	pre   int
	space bool // a space is owed before the next word
}

func (w *mdWriter) text(s string) {
	if w.pre > 0 {
		w.b.WriteString(s)
		return
	}
	fields := strings.FieldsFunc(s, isHTMLSpace)
	if len(fields) == 0 {
		w.space = w.space || s != ""
		return
	}
	for i, f := range fields {
		if i > 0 || w.space || startsWithSpace(s) {
			w.sep()
		}
		w.b.WriteString(f)
	}
	w.space = isHTMLSpace(rune(s[len(s)-1]))
}

func (w *mdWriter) sep() {
	if w.b.Len() > 0 {
		last := w.b.String()[w.b.Len()-1]
		if last != ' ' && last != '\n' && last != '[' && last != '(' {
			w.b.WriteByte(' ')
		}
	}
	w.space = false
}

func startsWithSpace(s string) bool { return s != "" && isHTMLSpace(rune(s[0])) }

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\u00a0'
}

func (w *mdWriter) raw(s string) {
	if w.space && s != "" && s[0] != '\n' {
		w.sep()
	}
	w.space = false
	w.b.WriteString(s)
}

// line ends the current line; block ends the current paragraph.
func (w *mdWriter) line()  { w.newlines(1) }
func (w *mdWriter) block() { w.newlines(2) }

func (w *mdWriter) newlines(n int) {
	w.space = false
	if w.b.Len() == 0 {
		return
	}
	w.trimRight()
	s := w.b.String()
	have := len(s) - len(strings.TrimRight(s, "\n"))
	for ; have < n; have++ {
		w.b.WriteByte('\n')
	}
}

func (w *mdWriter) trimNewlines() {
	s := w.b.String()
	t := strings.TrimRight(s, " \t\n")
	if len(t) != len(s) {
		w.b.Reset()
		w.b.WriteString(t)
	}
}

func (w *mdWriter) trimRight() {
	s := w.b.String()
	t := strings.TrimRight(s, " \t")
	if len(t) != len(s) {
		w.b.Reset()
		w.b.WriteString(t)
	}
}

func (w *mdWriter) String() string {
	lines := strings.Split(w.b.String(), "\n")
	var out []string
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

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
