package builtins

import (
	"strconv"
	"strings"
)

// htmlToMarkdown turns an HTML page into readable text: scripts, styles and
// other non-content elements are dropped, blocks become paragraphs, and with
// markdown set headings, lists, links, emphasis and code keep their markdown
// form. It is a small scanner, not a full HTML parser (golang.org/x/net/html
// would cost the wasm build far more, its entity table alone): odd markup
// degrades to plain text, never to a panic.
func htmlToMarkdown(src string, markdown bool) string {
	c := htmlConverter{src: src}
	c.w.md = markdown
	for c.i < len(c.src) {
		c.step()
	}
	return c.w.String()
}

// htmlConverter is htmlToMarkdown's state while it scans src from i.
type htmlConverter struct {
	src   string
	i     int
	w     mdWriter
	skip  int      // depth inside elements whose content is not shown
	hrefs []string // the open links' targets ("" for a link not shown)
	lists []htmlList
}

// htmlList is an open <ul> or <ol> and the number of its last item.
type htmlList struct {
	ordered bool
	n       int
}

// step consumes one run of text, one comment or one tag.
func (c *htmlConverter) step() {
	rest := c.src[c.i:]
	if rest[0] != '<' {
		j := strings.IndexByte(rest, '<')
		if j < 0 {
			j = len(rest)
		}
		c.text(rest[:j])
		c.i += j
		return
	}
	if strings.HasPrefix(rest, "<!--") {
		end := strings.Index(rest[4:], "-->")
		if end < 0 {
			c.i = len(c.src)
			return
		}
		c.i += 4 + end + 3
		return
	}
	end := strings.IndexByte(rest, '>')
	if end < 0 {
		c.text(rest)
		c.i = len(c.src)
		return
	}
	tag := rest[1:end]
	c.i += end + 1
	closing := strings.HasPrefix(tag, "/")
	name := strings.ToLower(tagName(strings.TrimPrefix(tag, "/")))
	if c.hidden(name, tag, closing) || c.skip > 0 {
		return
	}
	c.element(name, tag, closing)
}

func (c *htmlConverter) text(s string) {
	if c.skip == 0 {
		c.w.text(decodeEntities(s))
	}
}

// hidden tracks the elements whose content is not shown and reports whether
// name is one of them.
func (c *htmlConverter) hidden(name, tag string, closing bool) bool {
	switch name {
	case "script", "style", "head", "noscript", "svg", "template", "iframe", "object", "canvas", "select", "button":
	default:
		return false
	}
	switch {
	case closing:
		if c.skip > 0 {
			c.skip--
		}
	case !strings.HasSuffix(tag, "/"):
		c.skip++
		if name == "script" || name == "style" {
			// Their content may hold '<': jump to the end tag.
			if k := strings.Index(strings.ToLower(c.src[c.i:]), "</"+name); k >= 0 {
				c.i += k
			}
		}
	}
	return true
}

// element writes what a shown element's start or end tag stands for.
func (c *htmlConverter) element(name, tag string, closing bool) {
	w, md := &c.w, c.w.md
	switch name {
	case "h1", "h2", "h3", "h4", "h5", "h6":
		w.block()
		if !closing && md {
			w.raw("###### "[6-int(name[1]-'0'):]) // h1 → "# ", h6 → "###### "
		}
	case "p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "blockquote", "table", "form", "figure", "dl", "address":
		w.block()
	case "ul", "ol":
		c.list(name == "ol", closing)
	case "li":
		if !closing {
			c.item()
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
		if md {
			w.raw("---")
		}
		w.block()
	case "pre":
		c.pre(closing)
	case "code", "kbd", "samp":
		if md && w.pre == 0 {
			w.raw("`")
		}
	case "strong", "b":
		if md {
			w.raw("**")
		}
	case "em", "i":
		if md {
			w.raw("*")
		}
	case "a":
		if md {
			c.link(tag, closing)
		}
	case "img":
		c.image(tag)
	}
}

func (c *htmlConverter) list(ordered, closing bool) {
	c.w.line()
	if !closing {
		c.lists = append(c.lists, htmlList{ordered: ordered})
		return
	}
	if len(c.lists) > 0 {
		c.lists = c.lists[:len(c.lists)-1]
	}
	if len(c.lists) == 0 {
		c.w.block()
	}
}

// item starts a list item, indented by its list's nesting.
func (c *htmlConverter) item() {
	c.w.line()
	for range len(c.lists) - 1 {
		c.w.raw("  ")
	}
	if n := len(c.lists); n > 0 && c.lists[n-1].ordered {
		c.lists[n-1].n++
		c.w.raw(strconv.Itoa(c.lists[n-1].n) + ". ")
	} else {
		c.w.raw("- ")
	}
}

func (c *htmlConverter) pre(closing bool) {
	w := &c.w
	if !closing {
		w.block()
		if w.md {
			w.raw("```\n")
		}
		w.pre++
		return
	}
	if w.pre == 0 {
		return
	}
	w.pre--
	if w.md {
		w.trimNewlines()
		w.raw("\n```")
	}
	w.block()
}

// link writes [text](href); a javascript: link keeps only its text.
func (c *htmlConverter) link(tag string, closing bool) {
	if closing {
		if n := len(c.hrefs); n > 0 {
			h := c.hrefs[n-1]
			c.hrefs = c.hrefs[:n-1]
			if h != "" {
				c.w.raw("](" + h + ")")
			}
		}
		return
	}
	h := attr(tag, "href")
	if strings.HasPrefix(strings.ToLower(h), "javascript:") {
		h = ""
	}
	c.hrefs = append(c.hrefs, h)
	if h != "" {
		c.w.raw("[")
	}
}

// image writes an image's alt text, as ![alt](src) in markdown.
func (c *htmlConverter) image(tag string) {
	alt := decodeEntities(attr(tag, "alt"))
	switch {
	case alt == "":
	case c.w.md:
		c.w.raw("![" + alt + "](" + attr(tag, "src") + ")")
	default:
		c.w.text(alt)
	}
}
