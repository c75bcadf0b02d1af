package toolnexus

import (
	"context"
	"io/fs"

	core "github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/httptool"
	"github.com/toolnexus/wasm/core/wire"
)

// The Go port's names. Where the port's shape is core's, the name is
// core's (an alias or a forwarder; core_types.go shows their declarations);
// where it differs, the type is this package's own (client.go, hooks.go,
// toolkit_options.go, mcp*.go, skills_*.go), an adapter over core.

const (
	// Run statuses under the Go port's names.
	RunStatusDone       = core.StatusDone
	RunStatusPending    = core.StatusPending
	RunStatusIncomplete = core.StatusIncomplete

	// RedactedMarker stands where RedactProviderBody removed a value.
	RedactedMarker = wire.RedactedMarker
)

// NewInMemoryConversationStore returns an empty in-memory store.
func NewInMemoryConversationStore() *InMemoryConversationStore { return core.NewMemoryStore() }

// CreateGenerateClient runs the loop around generate, a model in this
// process, instead of an HTTP provider.
func CreateGenerateClient(generate core.GenerateFunc, opts ClientOptions) *Client {
	return wrapClient(core.CreateGenerateClient(generate, coreClientOptions(opts)), opts.SystemPrompt)
}

// RedactProviderBody is what of a provider's error body may be shown or
// logged: nothing for 401/403, else the body with account identifiers
// replaced.
func RedactProviderBody(status int, body string) string { return wire.RedactProviderBody(status, body) }

func AnswerDeclined(a0 string, a1 string) core.Answer { return core.AnswerDeclined(a0, a1) }
func AnswerOutput(a0 string, a1 any) core.Answer      { return core.AnswerOutput(a0, a1) }

func AuthRequired(a0 string, a1 string) core.ToolResult { return core.AuthRequired(a0, a1) }

var BuiltinNames = core.BuiltinNames

func BuiltinTools(a0 core.BuiltinsConfig) []core.Tool { return core.BuiltinTools(a0) }

func BuiltinsLinked() bool                                    { return core.BuiltinsLinked() }
func CheckApprovalEdit(a0 core.Request, a1 core.Answer) error { return core.CheckApprovalEdit(a0, a1) }
func CleanPath(a0 string) (string, error)                     { return core.CleanPath(a0) }

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

// HTTPTool builds a tool that calls an HTTP endpoint (core/httptool).
func HTTPTool(opts HTTPToolOptions) core.Tool { return httptool.New(opts) }

func IsRelayRequest(a0 *core.Request) bool { return core.IsRelayRequest(a0) }

const KindApproval = core.KindApproval
const KindAuthorization = core.KindAuthorization
const KindInput = core.KindInput
const KindQuestion = core.KindQuestion

func LoadSkillsFS(a0 fs.FS) (*core.SkillSet, error) { return core.LoadSkillsFS(a0) }

const MCPApproveAlways = core.MCPApproveAlways
const MCPApproveDestructive = core.MCPApproveDestructive
const MCPApproveListed = core.MCPApproveListed
const MCPApproveNever = core.MCPApproveNever
const MCPApproveUnlessReadOnly = core.MCPApproveUnlessReadOnly
const MCPConnected = core.MCPConnected
const MCPDisabled = core.MCPDisabled
const MCPFailed = core.MCPFailed

func MCPLinked() bool { return core.MCPLinked() }

const MaxJSONDepth = core.MaxJSONDepth

func NativeTool(a0 string, a1 string, a2 core.JSONSchema, a3 func(ctx context.Context, args map[string]any) (string, error)) core.Tool {
	return core.NativeTool(a0, a1, a2, a3)
}
func NewMemFS(a0 map[string]string) (*core.MemFS, error) { return core.NewMemFS(a0) }
func NewMemoryStore() *core.MemoryStore                  { return core.NewMemoryStore() }
func NewMetricsRegistry() *core.MetricsRegistry          { return core.NewMetricsRegistry() }

func ParseMCPConfig(a0 []byte) ([]core.MCPServerConfig, error) { return core.ParseMCPConfig(a0) }
func Pending(a0 core.Request) core.ToolResult                  { return core.Pending(a0) }
func PendingOf(a0 core.ToolResult) *core.Request               { return core.PendingOf(a0) }

func RelayAnswer(a0 string, a1 []core.RelayResult) core.Answer { return core.RelayAnswer(a0, a1) }

func RelayCallsOf(a0 *core.Request) []core.RelayCall { return core.RelayCallsOf(a0) }

const RelayIsErrorKey = core.RelayIsErrorKey
const RelayKind = core.RelayKind
const RelayOutputKey = core.RelayOutputKey

func RelayTool(a0 string, a1 string, a2 core.JSONSchema) core.Tool { return core.RelayTool(a0, a1, a2) }

func RequireApproval(a0 core.Tool) core.Tool { return core.RequireApproval(a0) }

const RunLimitError = core.RunLimitError
const RunLimitMaxTurns = core.RunLimitMaxTurns
const RunLimitTimeout = core.RunLimitTimeout

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

const StyleAnthropic = core.StyleAnthropic
const StyleOpenAI = core.StyleOpenAI

func ToAnthropic(a0 []core.Tool) []any { return core.ToAnthropic(a0) }
func ToGemini(a0 []core.Tool) []any    { return core.ToGemini(a0) }
func ToOpenAI(a0 []core.Tool) []any    { return core.ToOpenAI(a0) }
