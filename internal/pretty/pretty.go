// Package pretty formats JSON for gjson's @pretty and @ugly modifiers. It
// has the API gjson calls and a small implementation of its own: strings
// are copied as they are, so it never needs to decode one.
package pretty

// Options are the formatting options @pretty accepts.
type Options struct {
	Width    int
	Prefix   string
	Indent   string
	SortKeys bool // accepted, not applied: keys keep their order
}

// DefaultOptions are used by Pretty.
var DefaultOptions = &Options{Width: 80, Prefix: "", Indent: "  "}

// Pretty indents JSON with the default options.
func Pretty(json []byte) []byte { return PrettyOptions(json, nil) }

// PrettyOptions indents JSON: one value per line, nested values indented.
func PrettyOptions(json []byte, opts *Options) []byte {
	if opts == nil {
		opts = DefaultOptions
	}
	src := Ugly(json)
	out := make([]byte, 0, len(src)*2)
	depth := 0
	newline := func() {
		out = append(out, '\n')
		out = append(out, opts.Prefix...)
		for i := 0; i < depth; i++ {
			out = append(out, opts.Indent...)
		}
	}
	out = append(out, opts.Prefix...)
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := stringEnd(src, i)
			out = append(out, src[i:j]...)
			i = j - 1
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				out = append(out, c, src[i+1])
				i++
				continue
			}
			depth++
			out = append(out, c)
			newline()
		case '}', ']':
			depth--
			newline()
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
		case ':':
			out = append(out, ':', ' ')
		default:
			out = append(out, c)
		}
	}
	return append(out, '\n')
}

// Ugly removes the whitespace between JSON tokens.
func Ugly(json []byte) []byte {
	out := make([]byte, 0, len(json))
	for i := 0; i < len(json); i++ {
		switch c := json[i]; c {
		case ' ', '\t', '\n', '\r':
		case '"':
			j := stringEnd(json, i)
			out = append(out, json[i:j]...)
			i = j - 1
		default:
			out = append(out, c)
		}
	}
	return out
}

// stringEnd returns the index just past the string literal starting at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}
