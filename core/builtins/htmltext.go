package builtins

import "strings"

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
