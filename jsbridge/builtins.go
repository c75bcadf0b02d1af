//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"sync"
	"syscall/js"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/internal/jsregexp"
)

// The createToolkit options for skills and the built-in tools:
//
//	builtins       true (default) | false | {name: bool}   which built-ins
//	skills         {path: text} | "url of a JSON index"     SKILL.md files
//	files          {path: text}   the virtual file system's first content
//	onFilesChange  (path, text|null) => void   after each write or delete
//
// They need a wasm whose main imports core/builtins and core/skills and
// calls EnableTools
// (wasm/browser-tools → web/toolnexus-tools.wasm);
// the default build has neither skills nor built-ins, so there builtins
// defaults to off and asking for any of them is an error.

// toolFiles maps each toolkit to its virtual file system, for tk.files().
var (
	toolFilesMu sync.Mutex
	toolFiles   = map[*core.Toolkit]*core.MemFS{}
)

// toolsOptions fills opts.Builtins and opts.SkillsFS from the createToolkit
// options o (an array of tools, or undefined, means the defaults) and
// returns the file system the built-ins will use.
func toolsOptions(o js.Value, env ToolEnv, opts *core.Options) (*core.MemFS, error) {
	if tools != nil && core.SkillsLinked() && core.BuiltinsLinked() {
		return tools.options(o, env, opts)
	}
	isOpts := o.Type() == js.TypeObject && !js.Global().Get("Array").Call("isArray", o).Bool()
	get := func(key string) js.Value {
		if !isOpts {
			return js.Undefined()
		}
		return o.Get(key)
	}
	if builtins := get("builtins"); present(get("skills")) || present(get("files")) || (present(builtins) && builtins.Truthy()) {
		return nil, errors.New("createToolkit: builtins, skills and files need toolnexus-tools.wasm (a wasm whose main imports core/builtins and core/skills and calls jsbridge.EnableTools)")
	}
	opts.Builtins = false
	return nil, nil
}

// toolsGlue is the bridge's part of skills and built-ins. It is reached
// only through EnableTools, so that a main which does not call it (the
// default browser build) links none of it, nor core/vfs and the skill
// tool (about 35 kB of gzip'd wasm).
type toolsGlue struct {
	options func(o js.Value, env ToolEnv, opts *core.Options) (*core.MemFS, error)
	methods func(method func(string, func([]js.Value) (any, error)), tk *core.Toolkit)
}

var tools *toolsGlue

// EnableTools links the bridge's options and handle methods for skills and
// built-ins (builtins, skills, files, onFilesChange; tk.files(),
// tk.skillsPrompt(), tk.skills()). The tools build's main
// (wasm/browser-tools) calls it before NewAPI, beside importing
// core/builtins and core/skills, which register the features themselves.
func EnableTools() { tools = &toolsGlue{options: linkedToolsOptions, methods: linkedToolsMethods} }

// linkedToolsOptions is toolsOptions in a build that called EnableTools.
func linkedToolsOptions(o js.Value, env ToolEnv, opts *core.Options) (*core.MemFS, error) {
	isOpts := o.Type() == js.TypeObject && !js.Global().Get("Array").Call("isArray", o).Bool()
	get := func(key string) js.Value {
		if !isOpts {
			return js.Undefined()
		}
		return o.Get(key)
	}
	builtins, skills, files := get("builtins"), get("skills"), get("files")
	var initial map[string]string
	if present(files) {
		if err := fromJS(files, &initial); err != nil {
			return nil, fmt.Errorf("createToolkit: files must map paths to text: %w", err)
		}
	}
	mem, err := core.NewMemFS(initial)
	if err != nil {
		return nil, fmt.Errorf("createToolkit: files: %w", err)
	}
	if fn := get("onFilesChange"); isFunc(fn) {
		mem.OnChange = func(name string, data []byte, removed bool) {
			text := js.Null()
			if !removed {
				text = js.ValueOf(string(data))
			}
			_, _ = call(fn, name, text) // a throwing listener does not fail the tool
		}
	}
	cfg := core.BuiltinsConfig{Files: mem, Transport: env.Transport, Match: jsregexp.Matcher}
	switch {
	case !present(builtins) || builtins.Type() == js.TypeBoolean && builtins.Bool():
	case builtins.Type() == js.TypeBoolean:
		opts.Builtins = false
	case builtins.Type() == js.TypeObject:
		if err := fromJS(builtins, &cfg.Tools); err != nil {
			return nil, fmt.Errorf("createToolkit: builtins must be a boolean or map names to booleans: %w", err)
		}
	default:
		return nil, errors.New("createToolkit: builtins must be a boolean or an object of name: boolean")
	}
	if opts.Builtins == nil {
		opts.Builtins = cfg
	}
	if present(skills) {
		if opts.SkillsFS, err = skillsFS(skills, env); err != nil {
			return nil, fmt.Errorf("createToolkit: skills: %w", err)
		}
	}
	return mem, nil
}

func present(v js.Value) bool { return !v.IsUndefined() && !v.IsNull() }

// skillsFS reads the skills option: an object of path ⇒ text, or the URL of
// a JSON index holding such an object (or {"files": {...}}).
func skillsFS(v js.Value, env ToolEnv) (*core.MemFS, error) {
	var files map[string]string
	if v.Type() == js.TypeString {
		if env.Transport == nil {
			return nil, errors.New("no fetch to load the index with")
		}
		url := v.String()
		resp, err := env.Transport.Do(context.Background(), &core.HTTPRequest{Method: "GET", URL: url, Header: map[string]string{"accept": "application/json"}})
		if err != nil {
			return nil, fmt.Errorf("GET %s: %w", url, err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", url, err)
		}
		if resp.Status < 200 || resp.Status > 299 {
			return nil, fmt.Errorf("GET %s: HTTP %d", url, resp.Status)
		}
		if err := jsonx.Check(body); err != nil {
			return nil, fmt.Errorf("%s is not JSON: %w", url, err)
		}
		idx := gjson.ParseBytes(body)
		if f := idx.Get("files"); f.IsObject() {
			idx = f
		}
		if !idx.IsObject() {
			return nil, fmt.Errorf("%s must hold an object of path: text", url)
		}
		files = map[string]string{}
		idx.ForEach(func(k, val gjson.Result) bool {
			files[k.String()] = val.String()
			return true
		})
	} else if err := fromJS(v, &files); err != nil {
		return nil, errors.New("skills must be an object of path: text, or a URL")
	}
	return core.NewMemFS(files)
}

// rememberFiles ties a toolkit to its file system (nil: none).
func rememberFiles(tk *core.Toolkit, mem *core.MemFS) {
	if mem == nil {
		return
	}
	toolFilesMu.Lock()
	toolFiles[tk] = mem
	toolFilesMu.Unlock()
}

// toolsMethods adds the handle methods of skills and built-ins:
//
//	tk.files()         Promise<{path: text}>   the virtual file system
//	tk.skillsPrompt()  Promise<string>         the system-prompt section
//	tk.skills()        Promise<{skills: [{name, description, path}], problems: [{path, error}]}>
func toolsMethods(method func(string, func([]js.Value) (any, error)), tk *core.Toolkit) {
	if tools != nil && core.SkillsLinked() && core.BuiltinsLinked() {
		tools.methods(method, tk)
	}
}

// linkedToolsMethods is toolsMethods in a build that called EnableTools.
func linkedToolsMethods(method func(string, func([]js.Value) (any, error)), tk *core.Toolkit) {
	method("files", func([]js.Value) (any, error) {
		toolFilesMu.Lock()
		mem := toolFiles[tk]
		toolFilesMu.Unlock()
		if mem == nil {
			return toJS(map[string]string{}), nil
		}
		return toJS(mem.Snapshot()), nil
	})
	method("skillsPrompt", func([]js.Value) (any, error) { return tk.SkillsPrompt(), nil })
	method("skills", func([]js.Value) (any, error) {
		type skill struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			Path        string `json:"path"`
		}
		type problem struct {
			Path  string `json:"path"`
			Error string `json:"error"`
		}
		out := struct {
			Skills   []skill   `json:"skills"`
			Problems []problem `json:"problems"`
		}{Skills: []skill{}, Problems: []problem{}}
		if set := tk.Skills(); set != nil {
			for _, s := range set.Skills {
				out.Skills = append(out.Skills, skill{s.Name, s.Description, s.Path})
			}
			for _, p := range set.Problems {
				out.Problems = append(out.Problems, problem{p.Path, p.Err.Error()})
			}
		}
		return toJS(out), nil
	})
}

// forgetFiles drops a closed toolkit's file system.
func forgetFiles(tk *core.Toolkit) {
	toolFilesMu.Lock()
	delete(toolFiles, tk)
	toolFilesMu.Unlock()
}
