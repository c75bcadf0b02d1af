package httptool

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"sort"
	"strings"
	"time"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Options declares a tool that calls an HTTP endpoint.
type Options struct {
	Name        string
	Description string
	Method      string // default GET
	// URL may hold {name} placeholders, replaced by the URL-escaped argument
	// of that name (which then leaves the body / query).
	URL string
	// Headers may use ${NAME}, filled from Variables and, on native builds
	// only, from the process environment (as in the Go port). Under js/wasm
	// only Variables are read: never the page URL, storage or Node's
	// environment. A name found nowhere is an error result.
	Headers map[string]string
	// Query names arguments sent as query parameters whatever the method.
	Query []string
	// Body is how the arguments left after the URL and the query are sent
	// (as in the Go port): "json" (the default: a JSON object), "form"
	// (application/x-www-form-urlencoded) or "raw" (the "body" argument as
	// the whole body). No arguments left and no BodyFields send no body.
	Body string
	// BodyFields are fixed fields of a json or form body; the arguments
	// are merged over them (core's own).
	BodyFields  map[string]any
	InputSchema tool.JSONSchema
	// ResultMode is how a 2xx reply becomes the result, as in the Go port:
	// "text" (the default: the body), "json" (the body re-encoded as
	// compact JSON with sorted keys, <, > and & kept as they are, or as a
	// JSON string when it is not JSON) or "status+text" ("<status>\n<body>").
	ResultMode string
	// Timeout in milliseconds (0: the client's tool timeout).
	Timeout       int
	NeedsApproval bool
	// Idempotent declares the endpoint idempotent under the
	// Idempotency-Key header, which every attempt of a call then sends
	// (tool.Tool.Idempotent): "<run id>:<call id>", the same when an
	// interrupted run makes the call again.
	Idempotent bool
	Variables  map[string]string
	// MaxBytes caps the reply read into the result (default 1 MiB).
	MaxBytes int
	// Transport carries the request (default: core/tool.DefaultTransport()).
	Transport tool.Transport
}

const defaultHTTPToolMaxBytes = 1 << 20

// HTTPTool builds a tool from opts. GET, HEAD and DELETE send the arguments
// left after URL substitution as query parameters; other methods send them as
// a JSON body. A non-2xx reply is the error result "HTTP <status>: <body>";
// a 2xx reply is the body text, with Metadata["status"].
//
//	weather := New(Options{
//		Name: "weather", URL: "https://api.example/weather/{city}",
//		Headers: map[string]string{"authorization": "Bearer ${WEATHER_KEY}"},
//		Variables: map[string]string{"WEATHER_KEY": key},
//	}) // {"city":"Oslo"} ⇒ GET https://api.example/weather/Oslo
func New(opts Options) tool.Tool {
	method := strings.ToUpper(opts.Method)
	if method == "" {
		method = "GET"
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = defaultHTTPToolMaxBytes
	}
	schema := opts.InputSchema
	if schema == nil {
		schema = placeholderSchema(opts.URL)
	}
	return tool.Tool{
		Name:          opts.Name,
		Description:   opts.Description,
		InputSchema:   schema,
		Source:        tool.SourceHTTP,
		NeedsApproval: opts.NeedsApproval,
		Idempotent:    opts.Idempotent,
		Execute: func(args map[string]any, tctx *tool.ToolContext) (tool.ToolResult, error) {
			req, err := buildHTTPToolRequest(method, opts, args)
			if err != nil {
				return tool.ToolResult{Output: fmt.Sprintf("tool %q: %v", opts.Name, err), IsError: true}, nil
			}
			if opts.Idempotent && tctx != nil && tctx.IdempotencyKey != "" {
				req.Header["idempotency-key"] = tctx.IdempotencyKey
			}
			ctx := context.Background()
			if tctx != nil && tctx.Ctx != nil {
				ctx = tctx.Ctx
			}
			if opts.Timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, time.Duration(opts.Timeout)*time.Millisecond)
				defer cancel()
			}
			return doHTTPTool(ctx, opts, req), nil
		},
	}
}

func doHTTPTool(ctx context.Context, opts Options, req *tool.HTTPRequest) tool.ToolResult {
	tr := opts.Transport
	if tr == nil {
		tr = tool.DefaultTransport()
	}
	resp, err := tr.Do(ctx, req)
	if err != nil {
		return tool.ToolResult{Output: fmt.Sprintf("%s %s failed: %v", req.Method, req.URL, err), IsError: true}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(opts.MaxBytes)+1))
	if err != nil {
		return tool.ToolResult{Output: fmt.Sprintf("reading the reply of %s failed: %v", req.URL, err), IsError: true}
	}
	text := string(body)
	if len(body) > opts.MaxBytes {
		text = string(body[:opts.MaxBytes]) + fmt.Sprintf("\n[truncated at %d bytes]", opts.MaxBytes)
	}
	meta := map[string]any{"status": resp.Status}
	if resp.Status < 200 || resp.Status > 299 {
		return tool.ToolResult{Output: fmt.Sprintf("HTTP %d: %s", resp.Status, text), IsError: true, Metadata: meta}
	}
	return tool.ToolResult{Output: httpToolResultText(opts.ResultMode, resp.Status, text), Metadata: meta}
}

// buildHTTPToolRequest substitutes the URL, splits the arguments into query
// and body, and fills the headers.
func buildHTTPToolRequest(method string, opts Options, args map[string]any) (*tool.HTTPRequest, error) {
	rest := make(map[string]any, len(args))
	for k, v := range args {
		rest[k] = v
	}
	var missing []string
	target := replacePlaceholders(opts.URL, func(name string) string {
		v, ok := rest[name]
		if !ok || v == nil {
			missing = append(missing, name)
			return ""
		}
		delete(rest, name)
		return escapeComponent(jsonx.Text(v))
	})
	if len(missing) > 0 {
		return nil, fmt.Errorf("the URL needs %s but the arguments do not have it", strings.Join(missing, ", "))
	}
	if !httpScheme(target) {
		return nil, fmt.Errorf("invalid URL %q (want http or https)", target)
	}
	var query [][2]string
	inQuery := map[string]bool{}
	for _, name := range opts.Query {
		inQuery[name] = true
	}
	bodyless := method == "GET" || method == "HEAD" || method == "DELETE"
	keys := make([]string, 0, len(rest))
	for k := range rest {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if inQuery[k] || bodyless {
			query = append(query, [2]string{k, jsonx.Text(rest[k])})
			delete(rest, k)
		}
	}
	headers := map[string]string{}
	for k, v := range opts.Headers {
		filled, err := fillHeaderVariables(v, opts.Variables)
		if err != nil {
			return nil, fmt.Errorf("header %s: %w", k, err)
		}
		headers[strings.ToLower(k)] = filled
	}
	req := &tool.HTTPRequest{Method: method, URL: appendQuery(target, query), Header: headers}
	var err error
	if !bodyless && len(opts.BodyFields)+len(rest) > 0 {
		if err = encodeHTTPToolBody(req, opts, rest); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// replacePlaceholders replaces each {name} in s with fn(name).
func replacePlaceholders(s string, fn func(name string) string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(s[:open])
		b.WriteString(fn(s[open+1 : open+end]))
		s = s[open+end+1:]
	}
	b.WriteString(s)
	return b.String()
}

// fillHeaderVariables fills ${NAME} in an HTTP tool's headers: a name
// missing from vars is looked up in the environment on native builds
// (never under js/wasm: see lookupEnv).
func fillHeaderVariables(s string, vars map[string]string) (string, error) {
	return tool.FillVariables(s, vars, lookupEnv)
}

// placeholderSchema declares each URL placeholder as a required string.
func placeholderSchema(rawURL string) tool.JSONSchema {
	props := map[string]any{}
	var required []any
	replacePlaceholders(rawURL, func(name string) string {
		props[name] = map[string]any{"type": "string"}
		required = append(required, name)
		return ""
	})
	s := tool.JSONSchema{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}
