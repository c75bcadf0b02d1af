package httptool

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sort"
	"strconv"
	"strings"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// encodeHTTPToolBody sets req's body from the arguments left (rest) over
// opts.BodyFields, in opts.Body's encoding, and its content-type unless
// the tool's headers set one.
func encodeHTTPToolBody(req *tool.HTTPRequest, opts Options, rest map[string]any) error {
	fields := rest // buildHTTPToolRequest's own copy of the arguments
	for k, v := range opts.BodyFields {
		if _, ok := fields[k]; !ok {
			fields[k] = v
		}
	}
	contentType := ""
	switch opts.Body {
	case "", "json":
		b, err := jsonx.Marshal(fields)
		if err != nil {
			return fmt.Errorf("encode body: %w", err)
		}
		req.Body, contentType = b, "application/json"
	case "form":
		keys := make([]string, 0, len(fields))
		for k := range fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		pairs := make([][2]string, len(keys))
		for i, k := range keys {
			pairs[i] = [2]string{k, jsonx.Text(fields[k])}
		}
		// the query's encoding, with a space as '+' (as a form encodes it)
		form := strings.ReplaceAll(appendQuery("?", pairs)[1:], "%20", "+")
		req.Body, contentType = []byte(form), "application/x-www-form-urlencoded"
	case "raw":
		if v, ok := fields["body"]; ok && v != nil {
			req.Body = []byte(jsonx.Text(v))
		} else {
			req.Body = []byte{}
		}
	default:
		return fmt.Errorf("unknown body encoding %q (want json, form or raw)", opts.Body)
	}
	if _, ok := req.Header["content-type"]; !ok && contentType != "" {
		req.Header["content-type"] = contentType
	}
	return nil
}

// httpToolResultText is a 2xx reply's result text in mode (ResultMode).
func httpToolResultText(mode string, status int, text string) string {
	switch mode {
	case "json":
		if v, err := jsonx.Decode([]byte(text)); err == nil {
			if b, err := jsonx.Marshal(v); err == nil {
				return string(b)
			}
		}
		return string(jsonx.AppendString(nil, text))
	case "status+text":
		return strconv.Itoa(status) + "\n" + text
	}
	return text
}
