package toolnexus

import (
	"context"

	core "github.com/toolnexus/wasm/core"

	"io/fs"
)

type AfterLLMEvent = core.AfterLLMEvent
type AfterToolEvent = core.AfterToolEvent
type Answer = core.Answer

func AnswerDeclined(a0 string, a1 string) core.Answer { return core.AnswerDeclined(a0, a1) }
func AnswerOutput(a0 string, a1 any) core.Answer      { return core.AnswerOutput(a0, a1) }

type AnthropicTool = core.AnthropicTool

func AuthRequired(a0 string, a1 string) core.ToolResult { return core.AuthRequired(a0, a1) }

type BeforeLLMEvent = core.BeforeLLMEvent
type BeforeToolEvent = core.BeforeToolEvent

var BuiltinNames = core.BuiltinNames

func BuiltinTools(a0 core.BuiltinsConfig) []core.Tool { return core.BuiltinTools(a0) }

func BuiltinsLinked() bool                                    { return core.BuiltinsLinked() }
func CheckApprovalEdit(a0 core.Request, a1 core.Answer) error { return core.CheckApprovalEdit(a0, a1) }
func CleanPath(a0 string) (string, error)                     { return core.CleanPath(a0) }

type Client = core.Client
type ClientOptions = core.ClientOptions
type ClientStyle = core.ClientStyle
type Conversation = core.Conversation
type ConversationStore = core.ConversationStore

func CreateGenerateClient(a0 core.GenerateFunc, a1 core.ClientOptions) *core.Client {
	return core.CreateGenerateClient(a0, a1)
}
func CreateRawClient(a0 core.ClientOptions) *core.Client { return core.CreateRawClient(a0) }
func CreateRawGenerateClient(a0 core.GenerateFunc, a1 core.ClientOptions) *core.Client {
	return core.CreateRawGenerateClient(a0, a1)
}
func CreateRawToolkit(a0 context.Context, a1 core.Options) (*core.Toolkit, error) {
	return core.CreateRawToolkit(a0, a1)
}
func DefaultTransport() core.Transport { return core.DefaultTransport() }

var ErrBuiltinsNotLinked = core.ErrBuiltinsNotLinked
var ErrCannotResume = core.ErrCannotResume
var ErrJSONTooDeep = core.ErrJSONTooDeep
var ErrMCPNotLinked = core.ErrMCPNotLinked
var ErrNoHostFiles = core.ErrNoHostFiles
var ErrPortSkillsNotLinked = core.ErrPortSkillsNotLinked
var ErrSkillsNotLinked = core.ErrSkillsNotLinked
var ErrTransport = core.ErrTransport
var ErrWaitCancelled = core.ErrWaitCancelled

type ErrorAction = core.ErrorAction

const ErrorDefault = core.ErrorDefault
const ErrorFail = core.ErrorFail

type ErrorInfo = core.ErrorInfo

const ErrorRetry = core.ErrorRetry
const EventDone = core.EventDone
const EventError = core.EventError
const EventPending = core.EventPending
const EventText = core.EventText
const EventToolCall = core.EventToolCall
const EventToolCallDelta = core.EventToolCallDelta
const EventToolResult = core.EventToolResult
const EventUsage = core.EventUsage

func ExpandEnvHeaders(a0 map[string]string) map[string]string { return core.ExpandEnvHeaders(a0) }

type FileSystem = core.FileSystem
type GeminiFunctionDeclaration = core.GeminiFunctionDeclaration
type GeminiTool = core.GeminiTool
type GenerateFunc = core.GenerateFunc
type GenerateRequest = core.GenerateRequest
type GenerateResponse = core.GenerateResponse
type HTTPClientOption = core.HTTPClientOption
type HTTPRequest = core.HTTPRequest
type HTTPResponse = core.HTTPResponse

func HTTPTool(a0 core.HTTPToolOptions) core.Tool { return core.HTTPTool(a0) }

type HTTPToolOptions = core.HTTPToolOptions
type Hooks = core.Hooks
type InMemoryConversationStore = core.InMemoryConversationStore
type InProcessOptions = core.InProcessOptions
type InProcessRequest = core.InProcessRequest
type InProcessResponse = core.InProcessResponse
type InProcessToolCall = core.InProcessToolCall
type InProcessUsage = core.InProcessUsage

func IsRelayRequest(a0 *core.Request) bool { return core.IsRelayRequest(a0) }

type JSONSchema = core.JSONSchema

const KindApproval = core.KindApproval
const KindAuthorization = core.KindAuthorization
const KindInput = core.KindInput
const KindQuestion = core.KindQuestion

type LLMOverride = core.LLMOverride
type LLMResponse = core.LLMResponse

func ListMcpTools(a0 context.Context, a1 any) (*core.McpInventory, error) {
	return core.ListMcpTools(a0, a1)
}
func ListSkills(a0 core.LoadSkillsOptions) *core.SkillInventory { return core.ListSkills(a0) }
func LoadMcp(a0 any, a1 ...func(core.Request) (core.Answer, error)) (*core.McpSource, error) {
	return core.LoadMcp(a0, a1...)
}
func LoadMcpWithContext(a0 context.Context, a1 any, a2 ...func(core.Request) (core.Answer, error)) (*core.McpSource, error) {
	return core.LoadMcpWithContext(a0, a1, a2...)
}
func LoadSkills(a0 ...string) *core.SkillSource     { return core.LoadSkills(a0...) }
func LoadSkillsFS(a0 fs.FS) (*core.SkillSet, error) { return core.LoadSkillsFS(a0) }

type LoadSkillsOptions = core.LoadSkillsOptions

func LoadSkillsWith(a0 core.LoadSkillsOptions) *core.SkillSource { return core.LoadSkillsWith(a0) }

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

type McpConfig = core.McpConfig
type McpInventory = core.McpInventory
type McpSource = core.McpSource
type McpStatus = core.McpStatus
type MemFS = core.MemFS
type MemoryStore = core.MemoryStore
type MetricEvent = core.MetricEvent
type MetricsRegistry = core.MetricsRegistry

func NativeTool(a0 string, a1 string, a2 core.JSONSchema, a3 func(ctx context.Context, args map[string]any) (string, error)) core.Tool {
	return core.NativeTool(a0, a1, a2, a3)
}
func NativeToolReflect[T any](a0 string, a1 string, a2 func(ctx context.Context, in T) (string, error)) core.Tool {
	return core.NativeToolReflect[T](a0, a1, a2)
}
func NewInMemoryConversationStore() *core.InMemoryConversationStore {
	return core.NewInMemoryConversationStore()
}
func NewMemFS(a0 map[string]string) (*core.MemFS, error) { return core.NewMemFS(a0) }
func NewMemoryStore() *core.MemoryStore                  { return core.NewMemoryStore() }
func NewMetricsRegistry() *core.MetricsRegistry          { return core.NewMetricsRegistry() }

type OpenAIFunction = core.OpenAIFunction
type OpenAITool = core.OpenAITool
type Options = core.Options

func ParseMCPConfig(a0 []byte) ([]core.MCPServerConfig, error) { return core.ParseMCPConfig(a0) }
func ParseMcpConfig(a0 any) (core.McpConfig, error)            { return core.ParseMcpConfig(a0) }
func Pending(a0 core.Request) core.ToolResult                  { return core.Pending(a0) }
func PendingOf(a0 core.ToolResult) *core.Request               { return core.PendingOf(a0) }

type ProviderError = core.ProviderError
type RawHooks = core.RawHooks

func RedactProviderBody(a0 int, a1 string) string { return core.RedactProviderBody(a0, a1) }

const RedactedMarker = core.RedactedMarker

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

const RunStatusDone = core.RunStatusDone
const RunStatusIncomplete = core.RunStatusIncomplete
const RunStatusPending = core.RunStatusPending

type RunTimeoutError = core.RunTimeoutError

func Sanitize(a0 string) string { return core.Sanitize(a0) }

type ServerConfig = core.ServerConfig
type Skill = core.Skill
type SkillDef = core.SkillDef
type SkillInfo = core.SkillInfo
type SkillInventory = core.SkillInventory
type SkillProblem = core.SkillProblem
type SkillSet = core.SkillSet
type SkillSkip = core.SkillSkip
type SkillSkipReason = core.SkillSkipReason
type SkillSource = core.SkillSource

const SkillToolDescription = core.SkillToolDescription

func SkillsLinked() bool { return core.SkillsLinked() }

const SkillsPromptPreamble = core.SkillsPromptPreamble
const SkipDuplicateName = core.SkipDuplicateName
const SkipMalformed = core.SkipMalformed
const SkipMissingName = core.SkipMissingName
const SkipUnreadable = core.SkipUnreadable
const SourceBuiltin = core.SourceBuiltin
const SourceCustom = core.SourceCustom
const SourceHTTP = core.SourceHTTP
const SourceJS = core.SourceJS
const SourceMCP = core.SourceMCP
const SourceNative = core.SourceNative
const SourceRelay = core.SourceRelay
const SourceSkill = core.SourceSkill
const StatusConnected = core.StatusConnected
const StatusDisabled = core.StatusDisabled
const StatusDone = core.StatusDone
const StatusFailed = core.StatusFailed
const StatusIncomplete = core.StatusIncomplete
const StatusPending = core.StatusPending

type StreamEvent = core.StreamEvent
type Style = core.Style

const StyleAnthropic = core.StyleAnthropic
const StyleOpenAI = core.StyleOpenAI

type Tier = core.Tier

const TierFail = core.TierFail
const TierRetry = core.TierRetry

func ToAnthropic(a0 []core.Tool) []any { return core.ToAnthropic(a0) }
func ToGemini(a0 []core.Tool) []any    { return core.ToGemini(a0) }
func ToOpenAI(a0 []core.Tool) []any    { return core.ToOpenAI(a0) }

type Tool = core.Tool
type ToolCall = core.ToolCall
type ToolContext = core.ToolContext
type ToolInfo = core.ToolInfo
type ToolOverride = core.ToolOverride
type ToolRecord = core.ToolRecord
type ToolRequest = core.ToolRequest
type ToolResult = core.ToolResult
type ToolSource = core.ToolSource
type Toolkit = core.Toolkit

func ToolsLinked() bool { return core.ToolsLinked() }

type TranslateRequest = core.TranslateRequest
type TranslateResponse = core.TranslateResponse
type TranslateResult = core.TranslateResult
type TranslatedCall = core.TranslatedCall
type TranslatedToolCall = core.TranslatedToolCall
type Transport = core.Transport
type TransportFunc = core.TransportFunc
type Usage = core.Usage
