// Command aliasdoc writes toolnexus/core_types.go: the names package
// toolnexus takes from core, as aliases whose doc comments carry the
// declaration they stand for (fields, their comments, methods). An alias
// must stay an alias — toolnexus.Answer is core.Answer, so the port's
// programs, toolnexus/agents and core code pass the same values — but go
// doc prints an alias without its fields (issue 33: `go doc ./toolnexus
// Answer` showed only `type Answer = core.Answer`).
//
//	go generate ./toolnexus      (runs: go run ./internal/aliasdoc)
//	go run ./internal/aliasdoc -check   exit 1 when core_types.go is stale
//
// It reads the source of core and the packages core aliases, following
// alias chains (core.Answer is core/tool's Answer) to the declaration.
// TestCoreTypesDocIsCurrent runs -check.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// alias is one name toolnexus takes from another package; doc, when set,
// is the name's own first line (a port name for a core type says so).
type alias struct {
	name, pkg, typ, doc string
}

// aliases lists them; pkg is a key of imports.
var aliases = []alias{
	{"AfterToolEvent", "core", "AfterToolEvent", ""},
	{"Answer", "core", "Answer", ""},
	{"AnthropicTool", "core", "AnthropicTool", ""},
	{"BeforeToolEvent", "core", "BeforeToolEvent", ""},
	{"ClientStyle", "core", "Style", "ClientStyle is the Go port's name for Style."},
	{"ConversationStore", "core", "ConversationStore", ""},
	{"FileSystem", "core", "FileSystem", ""},
	{"GeminiFunctionDeclaration", "core", "GeminiFunctionDeclaration", ""},
	{"GeminiTool", "core", "GeminiTool", ""},
	{"GenerateFunc", "core", "GenerateFunc", ""},
	{"GenerateRequest", "core", "GenerateRequest", ""},
	{"GenerateResponse", "core", "GenerateResponse", ""},
	{"HTTPRequest", "core", "HTTPRequest", ""},
	{"HTTPResponse", "core", "HTTPResponse", ""},
	{"HTTPToolOptions", "httptool", "Options", "HTTPToolOptions declares a tool that calls an HTTP endpoint (HTTPTool)."},
	{"InMemoryConversationStore", "core", "MemoryStore", "InMemoryConversationStore is the port's name for core's MemoryStore."},
	{"JSONSchema", "core", "JSONSchema", ""},
	{"LLMResponse", "core", "LLMResponse", ""},
	{"MCPApproval", "core", "MCPApproval", ""},
	{"MCPServerConfig", "core", "MCPServerConfig", ""},
	{"MCPStatus", "core", "MCPStatus", ""},
	{"Matcher", "core", "Matcher", ""},
	{"MemFS", "core", "MemFS", ""},
	{"MemoryStore", "core", "MemoryStore", ""},
	{"MetricEvent", "core", "MetricEvent", ""},
	{"MetricsRegistry", "core", "MetricsRegistry", ""},
	{"OpenAIFunction", "core", "OpenAIFunction", ""},
	{"OpenAITool", "core", "OpenAITool", ""},
	{"ProviderError", "core", "ProviderError", ""},
	{"RelayCall", "core", "RelayCall", ""},
	{"RelayResult", "core", "RelayResult", ""},
	{"Request", "core", "Request", ""},
	{"RunResult", "core", "RunResult", "RunResult is what a run produced. From a toolnexus Client, Messages is the\n" +
		"transcript decoded into maps, as the Go port has it (core's own client\n" +
		"hands back each message as the json.RawMessage it sent)."},
	{"RunTimeoutError", "core", "RunTimeoutError", ""},
	{"Skill", "core", "Skill", ""},
	{"SkillProblem", "core", "SkillProblem", ""},
	{"SkillSet", "core", "SkillSet", ""},
	{"SkillSkipReason", "tool", "SkillSkipReason", "SkillSkipReason says why a candidate did not become a skill (SkillSkip)."},
	{"StreamEvent", "core", "StreamEvent", ""},
	{"Style", "core", "Style", ""},
	{"Tier", "core", "ErrorAction", "Tier is what OnError decides for a failed provider request."},
	{"Tool", "core", "Tool", ""},
	{"ToolCall", "core", "ToolCall", ""},
	{"ToolContext", "core", "ToolContext", ""},
	{"ToolInfo", "tool", "MCPToolInfo", "ToolInfo is one tool as an MCP server lists it (its own name)."},
	{"ToolOverride", "core", "ToolOverride", ""},
	{"ToolRecord", "core", "ToolCall", "ToolRecord is the record of one finished tool call (RunResult.ToolCalls)."},
	{"ToolRequest", "core", "ToolRequest", ""},
	{"ToolResult", "core", "ToolResult", ""},
	{"ToolSource", "core", "ToolSource", ""},
	{"TranslatedToolCall", "core", "TranslatedToolCall", ""},
	{"Transport", "core", "Transport", ""},
	{"TransportFunc", "core", "TransportFunc", ""},
	{"Usage", "core", "Usage", ""},
}

const module = "github.com/toolnexus/wasm"

// imports are the packages core_types.go imports, by the name it uses.
var imports = map[string]string{
	"core":     module + "/core",
	"httptool": module + "/core/httptool",
	"tool":     module + "/core/tool",
}

func main() {
	check := flag.Bool("check", false, "report whether core_types.go is current instead of writing it")
	flag.Parse()
	const out = "core_types.go" // in the current directory: go generate runs in toolnexus/
	root, err := moduleRoot()
	var src []byte
	if err == nil {
		src, err = render(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "aliasdoc:", err)
		os.Exit(2)
	}
	if *check {
		if old, _ := os.ReadFile(out); !bytes.Equal(old, src) {
			fmt.Fprintf(os.Stderr, "aliasdoc: %s is stale: run go generate ./toolnexus\n", out)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "aliasdoc:", err)
		os.Exit(2)
	}
}

// moduleRoot is the nearest directory up from here with a go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the current directory")
		}
		dir = parent
	}
}
