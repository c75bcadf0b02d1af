package toolnexus

import (
	"context"
	"io/fs"

	core "github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/httptool"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/toolnexus/internal/port"
)

// The Go port's names. Where the port's shape is core's, the name is
// core's (an alias or a forwarder); where it differs, it is
// toolnexus/internal/port's adapter over core.

// The port's own shapes (toolnexus/internal/port).
type (
	Hooks            = port.Hooks
	BeforeLLMEvent   = port.BeforeLLMEvent
	AfterLLMEvent    = port.AfterLLMEvent
	LLMOverride      = port.LLMOverride
	ClientOptions    = port.ClientOptions
	Client           = port.Client
	Conversation     = port.Conversation
	ErrorInfo        = port.ErrorInfo
	Tier             = port.Tier
	Options          = port.Options
	Toolkit          = port.Toolkit
	TranslateRequest = port.TranslateRequest
	TranslateResult  = port.TranslateResult
	McpConfig        = port.McpConfig
	ServerConfig     = port.ServerConfig
	McpStatus        = port.McpStatus
	McpSource        = port.McpSource
	McpInventory     = port.McpInventory
	ToolInfo         = port.ToolInfo

	SkillSource       = port.SkillSource
	SkillInfo         = port.SkillInfo
	SkillDef          = port.SkillDef
	SkillSkipReason   = port.SkillSkipReason
	SkillSkip         = port.SkillSkip
	SkillInventory    = port.SkillInventory
	LoadSkillsOptions = port.LoadSkillsOptions
)

const (
	TierRetry = port.TierRetry
	TierFail  = port.TierFail

	StatusConnected = port.StatusConnected
	StatusDisabled  = port.StatusDisabled
	StatusFailed    = port.StatusFailed

	SkillToolDescription = port.SkillToolDescription
	SkillsPromptPreamble = port.SkillsPromptPreamble
	SkipMissingName      = port.SkipMissingName
	SkipMalformed        = port.SkipMalformed
	SkipDuplicateName    = port.SkipDuplicateName
	SkipUnreadable       = port.SkipUnreadable

	// Run statuses under the Go port's names.
	RunStatusDone       = core.StatusDone
	RunStatusPending    = core.StatusPending
	RunStatusIncomplete = core.StatusIncomplete

	// RedactedMarker stands where RedactProviderBody removed a value.
	RedactedMarker = wire.RedactedMarker
)

// ErrNoHostFiles is the error of the path-taking APIs (Options.SkillsDir,
// an MCP config file path) under js/wasm, which reads no host files.
var ErrNoHostFiles = port.ErrNoHostFiles

// ClientStyle is the Go port's name for Style.
type ClientStyle = core.Style

// ToolRecord is the record of one finished tool call (RunResult.ToolCalls).
type ToolRecord = core.ToolCall

// InMemoryConversationStore is the port's name for core's MemoryStore.
type InMemoryConversationStore = core.MemoryStore

// NewInMemoryConversationStore returns an empty in-memory store.
func NewInMemoryConversationStore() *InMemoryConversationStore { return core.NewMemoryStore() }

// CreateClient builds a client. A bad option (an unknown Style) is
// reported by the first Run rather than here.
func CreateClient(opts ClientOptions) *Client { return port.CreateClient(opts) }

// CreateGenerateClient runs the loop around generate, a model in this
// process, instead of an HTTP provider.
func CreateGenerateClient(generate core.GenerateFunc, opts ClientOptions) *Client {
	return port.Wrap(core.CreateGenerateClient(generate, port.CoreClientOptions(opts)), opts.SystemPrompt)
}

// ParseMcpConfig reads an MCP configuration: a file path, JSON bytes, an
// McpConfig, or a decoded map.
func ParseMcpConfig(input any) (McpConfig, error) { return port.ParseMcpConfig(input) }

// LoadMcp connects every enabled server of an MCP configuration and
// returns their tools.
func LoadMcp(input any, waitFor ...func(core.Request) (core.Answer, error)) (*McpSource, error) {
	return port.LoadMcp(input, waitFor...)
}

// LoadMcpWithContext is LoadMcp bounded by ctx.
func LoadMcpWithContext(ctx context.Context, input any, waitFor ...func(core.Request) (core.Answer, error)) (*McpSource, error) {
	return port.LoadMcpWithContext(ctx, input, waitFor...)
}

// ListMcpTools lists each enabled server's tools; no toolkit is made.
func ListMcpTools(ctx context.Context, input any) (*McpInventory, error) {
	return port.ListMcpTools(ctx, input)
}

// LoadSkills discovers every **/SKILL.md under dirs.
func LoadSkills(dirs ...string) *SkillSource { return port.LoadSkills(dirs...) }

// LoadSkillsWith loads skills from directories and data skills.
func LoadSkillsWith(opts LoadSkillsOptions) *SkillSource { return port.LoadSkillsWith(opts) }

// ListSkills reports every skill opts' sources hold and every candidate
// skipped with its reason.
func ListSkills(opts LoadSkillsOptions) *SkillInventory { return port.ListSkills(opts) }

// RedactProviderBody is what of a provider's error body may be shown or
// logged: nothing for 401/403, else the body with account identifiers
// replaced.
func RedactProviderBody(status int, body string) string { return wire.RedactProviderBody(status, body) }

// core's names, the same in the port.
type AfterToolEvent = core.AfterToolEvent
type Answer = core.Answer

func AnswerDeclined(a0 string, a1 string) core.Answer { return core.AnswerDeclined(a0, a1) }
func AnswerOutput(a0 string, a1 any) core.Answer      { return core.AnswerOutput(a0, a1) }

type AnthropicTool = core.AnthropicTool

func AuthRequired(a0 string, a1 string) core.ToolResult { return core.AuthRequired(a0, a1) }

type BeforeToolEvent = core.BeforeToolEvent

var BuiltinNames = core.BuiltinNames

func BuiltinTools(a0 core.BuiltinsConfig) []core.Tool { return core.BuiltinTools(a0) }

func BuiltinsLinked() bool                                    { return core.BuiltinsLinked() }
func CheckApprovalEdit(a0 core.Request, a1 core.Answer) error { return core.CheckApprovalEdit(a0, a1) }
func CleanPath(a0 string) (string, error)                     { return core.CleanPath(a0) }

type ConversationStore = core.ConversationStore

func DefaultTransport() core.Transport { return core.DefaultTransport() }

var ErrBuiltinsNotLinked = core.ErrBuiltinsNotLinked
var ErrCannotResume = core.ErrCannotResume
var ErrJSONTooDeep = core.ErrJSONTooDeep
var ErrMCPNotLinked = core.ErrMCPNotLinked
var ErrSkillsNotLinked = core.ErrSkillsNotLinked
var ErrTransport = core.ErrTransport
var ErrWaitCancelled = core.ErrWaitCancelled

const EventDone = core.EventDone
const EventError = core.EventError
const EventPending = core.EventPending
const EventText = core.EventText
const EventToolCall = core.EventToolCall
const EventToolCallDelta = core.EventToolCallDelta
const EventToolResult = core.EventToolResult
const EventUsage = core.EventUsage

type FileSystem = core.FileSystem
type GeminiFunctionDeclaration = core.GeminiFunctionDeclaration
type GeminiTool = core.GeminiTool
type GenerateFunc = core.GenerateFunc
type GenerateRequest = core.GenerateRequest
type GenerateResponse = core.GenerateResponse
type HTTPRequest = core.HTTPRequest
type HTTPResponse = core.HTTPResponse

// HTTPTool builds a tool that calls an HTTP endpoint (core/httptool).
func HTTPTool(opts HTTPToolOptions) core.Tool { return httptool.New(opts) }

// HTTPToolOptions declares a tool that calls an HTTP endpoint.
type HTTPToolOptions = httptool.Options

func IsRelayRequest(a0 *core.Request) bool { return core.IsRelayRequest(a0) }

type JSONSchema = core.JSONSchema

const KindApproval = core.KindApproval
const KindAuthorization = core.KindAuthorization
const KindInput = core.KindInput
const KindQuestion = core.KindQuestion

type LLMResponse = core.LLMResponse

func LoadSkillsFS(a0 fs.FS) (*core.SkillSet, error) { return core.LoadSkillsFS(a0) }

type MCPApproval = core.MCPApproval

const MCPApproveAlways = core.MCPApproveAlways
const MCPApproveDestructive = core.MCPApproveDestructive
const MCPApproveListed = core.MCPApproveListed
const MCPApproveNever = core.MCPApproveNever
const MCPApproveUnlessReadOnly = core.MCPApproveUnlessReadOnly
const MCPConnected = core.MCPConnected
const MCPDisabled = core.MCPDisabled
const MCPFailed = core.MCPFailed

func MCPLinked() bool { return core.MCPLinked() }

type MCPServerConfig = core.MCPServerConfig
type MCPStatus = core.MCPStatus
type Matcher = core.Matcher

const MaxJSONDepth = core.MaxJSONDepth

type MemFS = core.MemFS
type MemoryStore = core.MemoryStore
type MetricEvent = core.MetricEvent
type MetricsRegistry = core.MetricsRegistry

func NativeTool(a0 string, a1 string, a2 core.JSONSchema, a3 func(ctx context.Context, args map[string]any) (string, error)) core.Tool {
	return core.NativeTool(a0, a1, a2, a3)
}
func NewMemFS(a0 map[string]string) (*core.MemFS, error) { return core.NewMemFS(a0) }
func NewMemoryStore() *core.MemoryStore                  { return core.NewMemoryStore() }
func NewMetricsRegistry() *core.MetricsRegistry          { return core.NewMetricsRegistry() }

type OpenAIFunction = core.OpenAIFunction
type OpenAITool = core.OpenAITool

func ParseMCPConfig(a0 []byte) ([]core.MCPServerConfig, error) { return core.ParseMCPConfig(a0) }
func Pending(a0 core.Request) core.ToolResult                  { return core.Pending(a0) }
func PendingOf(a0 core.ToolResult) *core.Request               { return core.PendingOf(a0) }

type ProviderError = core.ProviderError

func RelayAnswer(a0 string, a1 []core.RelayResult) core.Answer { return core.RelayAnswer(a0, a1) }

type RelayCall = core.RelayCall

func RelayCallsOf(a0 *core.Request) []core.RelayCall { return core.RelayCallsOf(a0) }

const RelayIsErrorKey = core.RelayIsErrorKey
const RelayKind = core.RelayKind
const RelayOutputKey = core.RelayOutputKey

type RelayResult = core.RelayResult

func RelayTool(a0 string, a1 string, a2 core.JSONSchema) core.Tool { return core.RelayTool(a0, a1, a2) }

type Request = core.Request

func RequireApproval(a0 core.Tool) core.Tool { return core.RequireApproval(a0) }

const RunLimitError = core.RunLimitError
const RunLimitMaxTurns = core.RunLimitMaxTurns
const RunLimitTimeout = core.RunLimitTimeout

type RunResult = core.RunResult
type RunTimeoutError = core.RunTimeoutError
type Skill = core.Skill
type SkillProblem = core.SkillProblem
type SkillSet = core.SkillSet

func SkillsLinked() bool { return core.SkillsLinked() }

const SourceBuiltin = core.SourceBuiltin
const SourceCustom = core.SourceCustom
const SourceHTTP = core.SourceHTTP
const SourceJS = core.SourceJS
const SourceMCP = core.SourceMCP
const SourceNative = core.SourceNative
const SourceRelay = core.SourceRelay
const SourceSkill = core.SourceSkill
const StatusDone = core.StatusDone
const StatusIncomplete = core.StatusIncomplete
const StatusPending = core.StatusPending

type StreamEvent = core.StreamEvent
type Style = core.Style

const StyleAnthropic = core.StyleAnthropic
const StyleOpenAI = core.StyleOpenAI

func ToAnthropic(a0 []core.Tool) []any { return core.ToAnthropic(a0) }
func ToGemini(a0 []core.Tool) []any    { return core.ToGemini(a0) }
func ToOpenAI(a0 []core.Tool) []any    { return core.ToOpenAI(a0) }

type Tool = core.Tool
type ToolCall = core.ToolCall
type ToolContext = core.ToolContext
type ToolOverride = core.ToolOverride
type ToolRequest = core.ToolRequest
type ToolResult = core.ToolResult
type ToolSource = core.ToolSource

type TranslatedToolCall = core.TranslatedToolCall
type Transport = core.Transport
type TransportFunc = core.TransportFunc
type Usage = core.Usage
