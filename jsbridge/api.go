//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"
	"syscall/js"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Version is reported to JS as api.version.
const Version = "0.1.0"

// toolkits maps the id stored on each JS toolkit handle to its Go toolkit,
// so client.run(prompt, handle) can find it again.
var (
	toolkitsMu sync.Mutex
	toolkits   = map[int]*core.Toolkit{}
	nextID     = 1
)

const toolkitIDKey = "__toolnexusToolkit"

// NewAPI builds the object handed to globalThis.__toolnexusBoot.
func NewAPI() js.Value {
	api := jsObject.New()
	api.Set("version", Version)
	api.Set("createToolkit", asyncMethod(createToolkit))
	api.Set("createClient", asyncMethod(createClient))
	api.Set("verifyDecisions", asyncMethod(verifyDecisions)) // approvals.go
	if agentsAPI != nil {                                    // set by EnableAgents (the tools build)
		agentsAPI(api)
	}
	return api
}

// createToolkit takes an array of tool specs, or {tools, variables, fetch}.
func createToolkit(args []js.Value) (any, error) {
	specs := argAt(args, 0)
	var env ToolEnv
	if specs.Type() == js.TypeObject && !js.Global().Get("Array").Call("isArray", specs).Bool() {
		opts := specs
		specs = opts.Get("tools")
		if v := opts.Get("variables"); v.Type() == js.TypeObject {
			if err := fromJS(v, &env.Variables); err != nil {
				return nil, fmt.Errorf("createToolkit: variables must map names to strings: %w", err)
			}
		}
		if f := opts.Get("fetch"); isFunc(f) {
			env.Transport, _ = NewFetchTransport(f)
		}
	}
	if env.Transport == nil {
		if t, err := NewFetchTransport(js.Undefined()); err == nil {
			env.Transport = t
		}
	}
	var tools []core.Tool
	if !specs.IsUndefined() && !specs.IsNull() {
		if !js.Global().Get("Array").Call("isArray", specs).Bool() {
			return nil, errors.New("createToolkit: tools must be an array")
		}
		for i := 0; i < specs.Length(); i++ {
			t, err := ToolFromJS(specs.Index(i), env)
			if err != nil {
				return nil, fmt.Errorf("createToolkit: tools[%d]: %w", i, err)
			}
			tools = append(tools, t)
		}
	}
	opts, err := mcpOptions(argAt(args, 0), env)
	if err != nil {
		return nil, err
	}
	opts.ExtraTools = tools
	record, err := approvalOptions(argAt(args, 0), &opts) // approvals.go
	if err != nil {
		return nil, err
	}
	agents, err := a2aOptions(argAt(args, 0), env, &opts) // a2a.go
	if err != nil {
		return nil, err
	}
	files, err := toolsOptions(argAt(args, 0), env, &opts) // builtins.go
	if err != nil {
		return nil, err
	}
	tk, err := core.CreateToolkit(context.Background(), opts)
	if err != nil {
		return nil, err
	}
	rememberFiles(tk, files)
	rememberA2A(tk, agents)
	rememberRecord(tk, record)
	toolkitsMu.Lock()
	id := nextID
	nextID++
	toolkits[id] = tk
	toolkitsMu.Unlock()
	return toolkitHandle(id, tk), nil
}

func toolkitHandle(id int, tk *core.Toolkit) js.Value {
	h := jsObject.New()
	h.Set(toolkitIDKey, id)
	var fns []js.Func
	method := func(name string, fn func([]js.Value) (any, error)) {
		f := asyncMethod(fn)
		fns = append(fns, f)
		h.Set(name, f)
	}
	method("tools", func([]js.Value) (any, error) {
		type info struct {
			Name          string          `json:"name"`
			Description   string          `json:"description"`
			InputSchema   core.JSONSchema `json:"inputSchema"`
			Source        core.ToolSource `json:"source"`
			NeedsApproval bool            `json:"needsApproval"`
			AlwaysAsk     bool            `json:"alwaysAsk,omitempty"`
		}
		var out []info
		for _, t := range tk.Tools() {
			out = append(out, info{t.Name, t.Description, t.InputSchema, t.Source, t.NeedsApproval, t.AlwaysAsk})
		}
		return toJS(out), nil
	})
	method("execute", func(args []js.Value) (any, error) {
		var in map[string]any
		if a := argAt(args, 1); !a.IsUndefined() && !a.IsNull() {
			if err := fromJS(a, &in); err != nil {
				return nil, fmt.Errorf("execute: args: %w", err)
			}
		}
		res, err := tk.Execute(context.Background(), argAt(args, 0).String(), in)
		if err != nil {
			return nil, err
		}
		return toJS(res), nil
	})
	method("mcpStatus", mcpStatus(tk))
	a2aMethods(method, tk)      // a2a.go: a2aStatus
	approvalMethods(method, tk) // approvals.go: decisions, exportDecisions, grants, revoke
	toolsMethods(method, tk)    // builtins.go: files, skillsPrompt, skills
	method("close", func([]js.Value) (any, error) {
		toolkitsMu.Lock()
		delete(toolkits, id)
		toolkitsMu.Unlock()
		forgetFiles(tk)
		rememberA2A(tk, nil)    // forgets it
		rememberRecord(tk, nil) // and the record
		// Released after this call returns: the Promise of close itself is
		// already settled by then.
		go func() {
			for _, f := range fns {
				f.Release()
			}
		}()
		return nil, tk.Close()
	})
	return h
}

func toolkitOf(v js.Value) (*core.Toolkit, error) {
	if v.Type() != js.TypeObject || v.Get(toolkitIDKey).Type() != js.TypeNumber {
		return nil, errors.New("expected a toolkit from createToolkit")
	}
	toolkitsMu.Lock()
	defer toolkitsMu.Unlock()
	tk, ok := toolkits[v.Get(toolkitIDKey).Int()]
	if !ok {
		return nil, errors.New("the toolkit was closed")
	}
	return tk, nil
}

func jsString(v js.Value) string {
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// messagesFromJSON splits a JSON array of messages into raw elements without
// decoding them: the transcript goes back to the provider byte for byte.
func messagesFromJSON(v js.Value, what string) ([]any, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if v.Type() != js.TypeString {
		return nil, fmt.Errorf("%s must be JSON text", what)
	}
	b := stringBytes(v)
	if len(b) == 0 {
		return nil, nil
	}
	if err := jsonx.Check(b); err != nil {
		return nil, fmt.Errorf("%s is not a JSON array of at most %d levels", what, jsonx.MaxDepth)
	}
	doc := gjson.ParseBytes(b)
	if !doc.IsArray() {
		return nil, fmt.Errorf("%s is not a JSON array", what)
	}
	var out []any
	doc.ForEach(func(_, m gjson.Result) bool {
		// Each message is a slice of b (Index is its offset), not a copy,
		// marked checked: core need not validate it again.
		if m.Index > 0 && m.Index+len(m.Raw) <= len(b) {
			out = append(out, jsonx.Checked(b[m.Index:m.Index+len(m.Raw)]))
		} else {
			out = append(out, jsonx.Checked(m.Raw))
		}
		return true
	})
	return out, nil
}

// resultJSON encodes a RunResult for JS; a failed run rejects with the
// partial result attached as err.resultJSON.
func resultJSON(res core.RunResult, runErr error) (any, error) {
	return encodeResult(res, runErr, true)
}

// encodeResult is resultJSON with or without the messages (a failed run's
// partial result always has them).
func encodeResult(res core.RunResult, runErr error, withMessages bool) (any, error) {
	if _, ok := runErr.(noResult); ok {
		return nil, runErr
	}
	b, err := appendRunResult(nil, res, withMessages || runErr != nil)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	if runErr != nil {
		return nil, &failure{err: runErr, props: map[string]any{"resultJSON": string(b)}}
	}
	return string(b), nil
}
