package jsonx

// Text renders a value as tool-output text: a string as it is, nil as "",
// anything else as JSON ("null" when it cannot be encoded: a channel, a
// func), so that a tool's output never fails to render.
func Text(v any) string {
	switch s := v.(type) {
	case nil:
		return ""
	case string:
		return s
	}
	b, err := Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}
