//go:build js && wasm

package jsbridge

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"syscall/js"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/httptool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// ToolEnv is what http tool specs need from createToolkit: the transport
// for their requests and the explicit ${NAME} variables for their headers.
type ToolEnv struct {
	Transport core.Transport
	Variables map[string]string
}

// ToolFromJS builds a core.Tool from a JS spec
// {name, description, inputSchema, needsApproval, relay, source, run, http}.
func ToolFromJS(spec js.Value, env ToolEnv) (core.Tool, error) {
	if spec.Type() != js.TypeObject {
		return core.Tool{}, errors.New("a tool must be an object")
	}
	name := str(spec, "name")
	var schema core.JSONSchema
	if s := spec.Get("inputSchema"); s.Type() == js.TypeObject {
		if err := fromJS(s, &schema); err != nil {
			return core.Tool{}, fmt.Errorf("tool %q: inputSchema: %w", name, err)
		}
	}
	var t core.Tool
	if h := spec.Get("http"); h.Type() == js.TypeObject {
		var err error
		if t, err = httpToolFromJS(name, str(spec, "description"), schema, h, env, truthy(spec, "idempotent")); err != nil {
			return core.Tool{}, fmt.Errorf("tool %q: %w", name, err)
		}
	} else if truthy(spec, "relay") {
		t = core.RelayTool(name, str(spec, "description"), schema)
	} else {
		run := spec.Get("run")
		if !isFunc(run) {
			return core.Tool{}, fmt.Errorf("tool %q needs a run function (or relay: true)", name)
		}
		exec := jsExecute(name, run)
		if hostReady {
			exec = hostExecute(register(run, name))
		}
		t = core.Tool{Name: name, Description: str(spec, "description"), InputSchema: schema, Source: core.SourceJS, Execute: exec}
	}
	if src := str(spec, "source"); src != "" {
		t.Source = core.ToolSource(src)
	}
	t.NeedsApproval = truthy(spec, "needsApproval")
	t.AlwaysAsk = str(spec, "needsApproval") == "always" // asked whatever a rule or grant says
	// Idempotent: a journaled run cut off while an approved call of this
	// tool ran runs it again with the same idempotency key, rather than
	// asking whether it happened.
	t.Idempotent = truthy(spec, "idempotent")
	return t, nil
}

// httpToolFromJS reads {method, url, headers, query, body, timeoutMs}; an
// idempotent tool sends the call's Idempotency-Key on every attempt.
func httpToolFromJS(name, description string, schema core.JSONSchema, h js.Value, env ToolEnv, idempotent bool) (core.Tool, error) {
	text, err := jsonOf(h)
	if err == nil {
		err = jsonx.CheckDepth([]byte(text), jsonx.MaxDepth)
	}
	if err != nil {
		return core.Tool{}, fmt.Errorf("http: %w", err)
	}
	spec := gjson.Parse(text)
	opts := httptool.Options{
		Name: name, Description: description, InputSchema: schema,
		Method: spec.Get("method").String(), URL: spec.Get("url").String(),
		Timeout: int(spec.Get("timeoutMs").Int()), Variables: env.Variables, Transport: env.Transport,
		Idempotent: idempotent,
	}
	if opts.URL == "" {
		return core.Tool{}, errors.New("http.url is required")
	}
	if hd := spec.Get("headers"); hd.Exists() {
		if opts.Headers, err = jsonx.StringMap([]byte(hd.Raw)); err != nil {
			return core.Tool{}, fmt.Errorf("http.headers: %w", err)
		}
	}
	for _, q := range spec.Get("query").Array() {
		opts.Query = append(opts.Query, q.String())
	}
	if body := spec.Get("body"); body.IsObject() {
		opts.BodyFields, _ = body.Value().(map[string]any)
	}
	return httptool.New(opts), nil
}

// jsExecute calls a JS run(args, ctx) and converts what it returns.
func jsExecute(name string, run js.Value) func(map[string]any, *core.ToolContext) (core.ToolResult, error) {
	return func(args map[string]any, tctx *core.ToolContext) (core.ToolResult, error) {
		ctx := jsObject.New()
		ctx.Set("callId", tctx.CallID)
		ctx.Set("toolName", name)
		ctx.Set("idempotencyKey", tctx.IdempotencyKey)
		if tctx.Answer != nil {
			ctx.Set("answer", toJS(tctx.Answer))
		} else {
			ctx.Set("answer", js.Null())
		}
		v, err := call(run, toJS(args), ctx)
		if err != nil {
			return core.ToolResult{Output: err.Error(), IsError: true}, nil
		}
		if isThenable(v) { // a synchronous result needs no trip through the event loop
			if v, err = await(tctx.Ctx, v); err != nil {
				return core.ToolResult{Output: err.Error(), IsError: true}, nil
			}
		}
		return resultFromJS(v)
	}
}

// resultFromJS reads a tool's return value: a string is the output; an
// object with "output" or "isError" is a ToolResult (metadata.pending, if
// any, suspends the call); anything else is JSON-encoded.
func resultFromJS(v js.Value) (core.ToolResult, error) {
	switch v.Type() {
	case js.TypeUndefined, js.TypeNull:
		return core.ToolResult{}, nil
	case js.TypeString:
		return core.ToolResult{Output: v.String()}, nil
	case js.TypeObject:
		if v.Get("output").IsUndefined() && v.Get("isError").IsUndefined() {
			break
		}
		text, err := jsonOf(v)
		if err == nil {
			err = jsonx.CheckDepth([]byte(text), jsonx.MaxDepth)
		}
		if err != nil {
			return core.ToolResult{}, fmt.Errorf("tool result: %w", err)
		}
		return resultFromJSON(text)
	}
	s, err := jsonOf(v)
	if err != nil {
		return core.ToolResult{}, err
	}
	return core.ToolResult{Output: s}, nil
}

// resultFromJSON reads a result object {output, isError, metadata} given as
// JSON text; metadata.pending, if any, suspends the call.
func resultFromJSON(text string) (core.ToolResult, error) {
	doc := gjson.Parse(text)
	res := core.ToolResult{IsError: doc.Get("isError").Bool()}
	switch out := doc.Get("output"); out.Type {
	case gjson.String:
		res.Output = out.String()
	case gjson.Null:
	default:
		res.Output = out.Raw
	}
	if md := doc.Get("metadata"); md.IsObject() {
		res.Metadata, _ = md.Value().(map[string]any)
		if p := md.Get("pending"); p.IsObject() {
			var req core.Request
			if err := req.UnmarshalJSON([]byte(p.Raw)); err != nil {
				return core.ToolResult{}, fmt.Errorf("tool result: metadata.pending: %w", err)
			}
			res.Metadata["pending"] = req
		}
	}
	return res, nil
}
