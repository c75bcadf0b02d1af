package mcp

import (
	"strconv"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/textx"
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
//
// The block is read by its raw JSON text: a gjson.Result passed by value
// costs the wasm build a struct copy at every call site.
func mcpContentText(c gjson.Result) string {
	raw := c.Raw
	switch typ := jsonStr(raw, "type"); typ {
	case "text":
		return jsonStr(raw, "text")
	case "image", "audio":
		return "[" + typ + ": " + mimeOrUnknown(jsonStr(raw, "mimeType")) + ", " + base64Size(jsonStr(raw, "data")) + "]"
	case "resource_link":
		// [resource link: name <uri> (mimeType): description]
		name := jsonStr(raw, "name")
		if name == "" {
			name = jsonStr(raw, "title")
		}
		if name != "" {
			name += " "
		}
		return "[resource link: " + name + "<" + jsonStr(raw, "uri") + ">" +
			around(" (", jsonStr(raw, "mimeType"), ")") + around(": ", jsonStr(raw, "description"), "") + "]"
	case "resource":
		// a header naming the resource, then its text; a blob is described
		// by MIME type and size.
		r := c.Get("resource").Raw
		head, mime := "[resource <"+jsonStr(r, "uri")+">", jsonStr(r, "mimeType")
		switch {
		case gjson.Get(r, "text").Exists():
			if mime == "text/plain" {
				mime = ""
			}
			return head + around(" (", mime, ")") + "]\n" + jsonStr(r, "text")
		case gjson.Get(r, "blob").Exists():
			return head + ": " + mimeOrUnknown(mime) + ", " + base64Size(jsonStr(r, "blob")) + "]"
		}
		return head + ": no text or blob]"
	default:
		return "[content of unsupported type " + strconv.Quote(textx.Truncate(typ, 40)) + " omitted]"
	}
}

// jsonStr reads the string at path in the JSON text raw ("" when absent).
func jsonStr(raw, path string) string { return gjson.Get(raw, path).String() }

// around returns before+s+after, or "" when s is empty.
func around(before, s, after string) string {
	if s == "" {
		return ""
	}
	return before + s + after
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
