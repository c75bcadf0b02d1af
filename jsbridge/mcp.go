//go:build js && wasm

package jsbridge

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"syscall/js"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
)

// mcpOptions reads the MCP part of createToolkit's options:
//
//	{mcpServers: {name: {url, type?, headers?, timeout?, enabled?, disabled?, approval?}} | {mcpServers: {...}},
//	 variables: {NAME: "value"}, waitFor: async (request) => answer}
//
// mcpServers may also be a whole Claude-desktop config (an object with a
// top-level mcpServers, servers or mcp key). variables fill ${NAME} in
// header values; approval ("always", "never", "destructive" or tool names;
// core.MCPApproval) says which tools ask first; waitFor answers elicitation
// requests (form ⇒ kind "input" with data.schema, URL ⇒ kind
// "authorization"). env supplies the fetch
// transport and the variables createToolkit already read.
func mcpOptions(opts js.Value, env ToolEnv) (core.Options, error) {
	out := core.Options{Variables: env.Variables, Transport: env.Transport}
	if opts.Type() != js.TypeObject {
		return out, nil
	}
	if f := opts.Get("waitFor"); isFunc(f) {
		out.WaitForContext = WaitFor(f)
	}
	servers := opts.Get("mcpServers")
	if servers.IsUndefined() || servers.IsNull() {
		return out, nil
	}
	if servers.Type() != js.TypeObject {
		return out, fmt.Errorf("createToolkit: mcpServers must be an object of name ⇒ server")
	}
	if !core.MCPLinked() {
		return out, errNoMCP
	}
	text, err := jsonOf(servers)
	if err != nil {
		return out, fmt.Errorf("createToolkit: mcpServers: %w", err)
	}
	doc := gjson.Parse(text)
	if doc.Get("mcpServers").IsObject() || doc.Get("servers").IsObject() || doc.Get("mcp").IsObject() {
		out.MCP = []byte(text)
	} else {
		out.MCP = []byte(`{"mcpServers":` + text + `}`)
	}
	return out, nil
}

// errNoMCP is createToolkit's answer to mcpServers in a wasm without the MCP
// client: the default browser build (toolnexus.wasm) leaves it to the tools
// build, 148 kB raw / 37 kB gzip less for the pages that do not use it.
var errNoMCP = errors.New(`createToolkit: mcpServers need toolnexus-tools.wasm (load({wasm: "toolnexus-tools.wasm"})); the default toolnexus.wasm has no MCP client (a wasm whose main imports core/mcp has it)`)

// mcpStatus is toolkit.mcpStatus(): {name: {status, reason?, tools, transport?}}.
func mcpStatus(tk *core.Toolkit) func([]js.Value) (any, error) {
	return func([]js.Value) (any, error) { return toJS(tk.MCPServers()), nil }
}
