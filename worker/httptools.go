package worker

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/httptool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// HTTPToolsSetting declares HTTP tools without a build: a JSON array in the
// shape of the <toolnexus-chat> element's config tools, e.g.
//
//	[{"name": "refund", "description": "Refund an order.",
//	  "url": "https://shop.example/refunds", "method": "POST",
//	  "headers": {"authorization": "Bearer ${SHOP_TOKEN}"},
//	  "inputSchema": {"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]},
//	  "needsApproval": true, "idempotent": true}]
//
// "needsApproval": "always" makes every call ask, whatever APPROVAL_RULES
// or an "allow for this conversation" say.
//
// ${NAME} in a header is filled from the Worker's environment (a var or a
// secret). "idempotent" declares that the endpoint honours the
// Idempotency-Key header, which every attempt of a call then sends
// ("<run id>:<call id>"): a durable run interrupted while an approved call
// of it ran calls it again with the same key instead of asking a person
// whether it happened. The tools come after the Go tool set
// (Options.Tools); a name it has already wins. Every problem of the
// setting is reported at once (ConfigErrors), before anything runs.
const HTTPToolsSetting = "HTTP_TOOLS"

// maxHTTPTools bounds HTTP_TOOLS.
const maxHTTPTools = 64

// HTTPToolDecl is one tool of HTTP_TOOLS.
type HTTPToolDecl struct {
	Name, Description, URL, Method, Body, ResultMode string
	Headers                                          map[string]any
	Query                                            []string
	InputSchema                                      map[string]any
	TimeoutMs                                        int
	NeedsApproval, Idempotent                        bool
	// AlwaysAsk: "needsApproval": "always" — no approval rule or grant
	// lets a call of it run unasked.
	AlwaysAsk bool
}

// approvalMark reads "needsApproval": true, false or "always".
func approvalMark(needs, always *bool) jsonx.Reader {
	return func(v gjson.Result, path string) error {
		if v.Type == gjson.String && v.Str == "always" {
			*needs, *always = true, true
			return nil
		}
		if err := jsonx.Bool(needs)(v, path); err != nil {
			return &jsonx.FieldError{Path: path, Problem: `must be true, false or "always"`}
		}
		return nil
	}
}

// ParseHTTPTools reads and checks HTTP_TOOLS ("" declares none).
func ParseHTTPTools(text string) ([]HTTPToolDecl, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	problem := func(format string, args ...any) *ConfigError {
		return &ConfigError{HTTPToolsSetting, fmt.Sprintf(format, args...)}
	}
	if err := jsonx.CheckDepthString(text, 32); err != nil || !gjson.Valid(text) {
		return nil, problem("is not valid JSON (want an array of tools: [{\"name\", \"description\", \"url\", \"method\", \"needsApproval\", \"idempotent\", …}])")
	}
	doc := gjson.Parse(text)
	if !doc.IsArray() {
		return nil, problem("must be a JSON array of tools")
	}
	list := doc.Array()
	if len(list) > maxHTTPTools {
		return nil, problem("declares %d tools; at most %d are allowed", len(list), maxHTTPTools)
	}
	var problems ConfigErrors
	seen := map[string]bool{}
	out := make([]HTTPToolDecl, 0, len(list))
	for i, v := range list {
		var d HTTPToolDecl
		if !v.IsObject() {
			problems.add(problem("tool %d must be an object", i))
			continue
		}
		err := jsonx.ReadObject(v, "", true,
			jsonx.Field{Name: "name", Read: jsonx.String(&d.Name)},
			jsonx.Field{Name: "description", Read: jsonx.String(&d.Description)},
			jsonx.Field{Name: "url", Read: jsonx.String(&d.URL)},
			jsonx.Field{Name: "method", Read: jsonx.String(&d.Method)},
			jsonx.Field{Name: "body", Read: jsonx.String(&d.Body)},
			jsonx.Field{Name: "resultMode", Read: jsonx.String(&d.ResultMode)},
			jsonx.Field{Name: "headers", Read: jsonx.Map(&d.Headers)},
			jsonx.Field{Name: "query", Read: stringList(&d.Query)},
			jsonx.Field{Name: "inputSchema", Read: jsonx.Map(&d.InputSchema)},
			jsonx.Field{Name: "timeoutMs", Read: jsonx.Int(&d.TimeoutMs)},
			jsonx.Field{Name: "needsApproval", Read: approvalMark(&d.NeedsApproval, &d.AlwaysAsk)},
			jsonx.Field{Name: "idempotent", Read: jsonx.Bool(&d.Idempotent)},
		)
		if err != nil {
			problems.add(problem("tool %d: %v", i, err))
			continue
		}
		switch {
		case !validToolName(d.Name):
			problems.add(problem("tool %d: \"name\" must be 1-64 letters, digits, _ or -", i))
		case seen[d.Name]:
			problems.add(problem("declares the tool %s twice", d.Name))
		case !strings.HasPrefix(d.URL, "https://") && !strings.HasPrefix(d.URL, "http://"):
			problems.add(problem("tool %s: \"url\" must be an http:// or https:// URL", d.Name))
		case d.TimeoutMs < 0:
			problems.add(problem("tool %s: \"timeoutMs\" must not be negative", d.Name))
		default:
			bad := false
			for k, h := range d.Headers {
				if _, ok := h.(string); !ok {
					problems.add(problem("tool %s: header %s must be a string", d.Name, QuoteClip(k)))
					bad = true
				}
			}
			if !bad {
				seen[d.Name] = true
				out = append(out, d)
			}
		}
	}
	if err := problems.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// validToolName reports whether name is 1-64 letters, digits, _ or -, as
// the providers require of a tool's name.
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// httpTools builds HTTP_TOOLS's tools over the Worker's transport.
func (h *Handler) httpTools() ([]core.Tool, error) {
	decls, err := ParseHTTPTools(h.opts.Getenv(HTTPToolsSetting))
	if err != nil || len(decls) == 0 {
		return nil, err
	}
	out := make([]core.Tool, len(decls))
	for i, d := range decls {
		headers := map[string]string{}
		vars := map[string]string{}
		for k, v := range d.Headers {
			s := v.(string)
			headers[k] = s
			for _, name := range variableNames(s) {
				if v := h.opts.Getenv(name); v != "" {
					vars[name] = v
				}
			}
		}
		out[i] = httptool.New(httptool.Options{
			Name: d.Name, Description: d.Description, Method: d.Method, URL: d.URL, Headers: headers, Query: d.Query,
			Body: d.Body, ResultMode: d.ResultMode, InputSchema: d.InputSchema, Timeout: d.TimeoutMs,
			NeedsApproval: d.NeedsApproval, Idempotent: d.Idempotent, Variables: vars, Transport: h.opts.Transport,
		})
		out[i].AlwaysAsk = d.AlwaysAsk
	}
	return out, nil
}
