package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// mcpContentText renders one content block of a CallToolResult as the text
// the model reads. Nothing is dropped silently: the wire formats this
// runtime speaks carry tool results as text, so a block that is not text
// becomes a short description of what it holds.
//
//	{"type":"text","text":"hi"}                                  ⇒ hi
//	{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="} ⇒ [image: image/png, 8 bytes]
//	{"type":"resource_link","uri":"file:///a.txt","name":"a.txt"} ⇒ [resource link: a.txt <file:///a.txt>]
//	{"type":"resource","resource":{"uri":"file:///a.txt","text":"A"}} ⇒ [resource <file:///a.txt>]\nA
func mcpContentText(c gjson.Result) string {
	switch typ := c.Get("type").String(); typ {
	case "text":
		return c.Get("text").String()
	case "image", "audio":
		return "[" + typ + ": " + mimeOrUnknown(c.Get("mimeType").String()) + ", " + base64Size(c.Get("data").String()) + "]"
	case "resource_link":
		return resourceLinkText(c)
	case "resource":
		return embeddedResourceText(c.Get("resource"))
	default:
		return "[content of unsupported type " + strconv.Quote(truncate(typ, 40)) + " omitted]"
	}
}

// resourceLinkText: [resource link: name <uri> (mimeType): description].
func resourceLinkText(c gjson.Result) string {
	var b strings.Builder
	b.WriteString("[resource link: ")
	name := c.Get("name").String()
	if title := c.Get("title").String(); title != "" && name == "" {
		name = title
	}
	if name != "" {
		b.WriteString(name)
		b.WriteByte(' ')
	}
	b.WriteString("<" + c.Get("uri").String() + ">")
	if mime := c.Get("mimeType").String(); mime != "" {
		b.WriteString(" (" + mime + ")")
	}
	if desc := c.Get("description").String(); desc != "" {
		b.WriteString(": " + desc)
	}
	b.WriteByte(']')
	return b.String()
}

// embeddedResourceText: a header naming the resource, then its text; a
// blob is described by MIME type and size.
func embeddedResourceText(r gjson.Result) string {
	head := "[resource <" + r.Get("uri").String() + ">"
	mime := r.Get("mimeType").String()
	if text := r.Get("text"); text.Exists() {
		if mime != "" && mime != "text/plain" {
			head += " (" + mime + ")"
		}
		return head + "]\n" + text.String()
	}
	if blob := r.Get("blob"); blob.Exists() {
		return head + ": " + mimeOrUnknown(mime) + ", " + base64Size(blob.String()) + "]"
	}
	return head + ": no text or blob]"
}

func mimeOrUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// base64Size reports how many bytes base64 text decodes to ("1234 bytes"),
// without decoding it (images can be megabytes). Whitespace is ignored;
// text that is not base64 says so.
func base64Size(s string) string {
	n, pad := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
		case c == '=':
			pad++
		case pad > 0: // data after padding
			return "invalid base64 data"
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '-', c == '_':
			n++
		default:
			return "invalid base64 data"
		}
	}
	if pad > 2 || n%4 == 1 {
		return "invalid base64 data"
	}
	bytes := n / 4 * 3
	if r := n % 4; r > 0 {
		bytes += r - 1
	}
	if bytes == 1 {
		return "1 byte"
	}
	return strconv.Itoa(bytes) + " bytes"
}
