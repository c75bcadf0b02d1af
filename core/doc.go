// Package core is the toolnexus-wasm agent runtime: tools and a toolkit, a
// client that runs the tool-calling loop against OpenAI- and Anthropic-style
// endpoints, suspension of a tool call for a human (WaitFor), durable halts
// (Status "pending") resumed with an Answer (RunWithAnswer), and relay tools.
//
// core has one API, shaped for wasm: one constructor per concept
// (CreateClient, CreateGenerateClient, CreateToolkit), one hook type
// (Hooks), transcripts as encoded messages (RunResult.Messages holds
// json.RawMessage elements). The JS bridge, the Worker and every wasm
// build use it. Code written for the Go port of toolnexus
// (github.com/muthuishere/toolnexus, package toolnexus) uses package
// github.com/toolnexus/wasm/toolnexus instead: the port's API, as an
// adapter over core.
//
// core is pure Go: it never imports syscall/js, and its js/wasm build does not
// link net/http. All HTTP goes through a Transport; native builds default to
// net/http, and the JS bridge supplies one over fetch.
//
// core is a kernel with packages around it. The shared types live in
// core/tool (core re-exports each: core.Tool is tool.Tool), the provider
// wire formats in core/wire (core.Usage is wire.Usage); the optional
// features are packages a program links by importing them, the way
// database/sql drivers are linked:
//
//	import (
//		"github.com/toolnexus/wasm/core"
//		_ "github.com/toolnexus/wasm/core/builtins" // Options.Builtins
//		_ "github.com/toolnexus/wasm/core/skills"   // Options.SkillsFS, LoadSkillsFS
//		_ "github.com/toolnexus/wasm/core/mcp"      // Options.MCP, ParseMCPConfig
//	)
//
// Each registers itself with core/tool from its init (core/a2a, remote A2A
// agents as tools, too: for hosts; Go adds its tools itself). Without the import,
// the zero Options add no built-ins, and asking for the feature is an error
// that names the import to add (ErrBuiltinsNotLinked, ErrSkillsNotLinked,
// ErrMCPNotLinked).
// The file system of the built-ins is core/vfs.
//
// A minimal run:
//
//	tk, _ := core.CreateToolkit(ctx, core.Options{ExtraTools: []core.Tool{
//		core.NativeTool("add", "add two numbers", nil, func(ctx context.Context, args map[string]any) (string, error) {
//			return fmt.Sprint(args["a"].(float64) + args["b"].(float64)), nil
//		}),
//	}})
//	client := core.CreateClient(core.ClientOptions{BaseURL: "https://api.openai.com/v1", Style: core.StyleOpenAI, Model: "gpt-4o-mini", APIKey: key})
//	res, err := client.Run(ctx, "what is 2+3?", tk)
package core
