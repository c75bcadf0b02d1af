//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"fmt"
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
// They need a wasm built with -tags toolnexus_tools (web/toolnexus-tools.wasm);
// the default build has neither skills nor built-ins, so there builtins
// defaults to off and asking for any of them is an error.

// toolFiles maps each toolkit to its virtual file system, for tk.files().
var (
	toolFilesMu sync.Mutex
	toolFiles   = map[*core.Toolkit]*core.MemFS{}
)

// toolsOptions fills opts.Builtins and opts.Skills from the createToolkit
// options o (an array of tools, or undefined, means the defaults) and
// returns the file system the built-ins will use.
func toolsOptions(o js.Value, env ToolEnv, opts *core.Options) (*core.MemFS, error) {
	isOpts := o.Type() == js.TypeObject && !js.Global().Get("Array").Call("isArray", o).Bool()
	get := func(key string) js.Value {
		if !isOpts {
			return js.Undefined()
		}
		return o.Get(key)
	}
	builtins, skills, files := get("builtins"), get("skills"), get("files")
	if !core.ToolsLinked {
		if present(skills) || present(files) || (present(builtins) && builtins.Truthy()) {
			return nil, errors.New("createToolkit: builtins, skills and files need toolnexus-tools.wasm (a wasm built with -tags toolnexus_tools)")
		}
		opts.Builtins = false
		return nil, nil
	}
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
		if opts.Skills, err = skillsFS(skills, env); err != nil {
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
	if !core.ToolsLinked {
		return // the default build: keep the wasm free of this code
	}
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
