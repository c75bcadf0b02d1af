package agents

import (
	"github.com/toolnexus/wasm/core"
	coreagents "github.com/toolnexus/wasm/core/agents"
)

type Agent = coreagents.Agent
type Budget = coreagents.Budget
type Clock = coreagents.Clock
type CloseOptions = coreagents.CloseOptions

func Compactor(a0 coreagents.CompactorOptions) func(history []any) ([]any, error) {
	return coreagents.Compactor(a0)
}

type CompactorOptions = coreagents.CompactorOptions
type Completion = coreagents.Completion
type Def = coreagents.Def

var ErrBusy = coreagents.ErrBusy
var ErrNotSuspended = coreagents.ErrNotSuspended

func EstimateTokens(a0 []any) int { return coreagents.EstimateTokens(a0) }

type Event = coreagents.Event
type Guardrail = coreagents.Guardrail
type Handle = coreagents.Handle
type HandleView = coreagents.HandleView

func Harness(a0 coreagents.Spec) coreagents.Spec { return coreagents.Harness(a0) }

type InboxItem = coreagents.InboxItem
type LLMOptions = coreagents.LLMOptions

const LimitCompletion = coreagents.LimitCompletion

type LimitError = coreagents.LimitError

const LimitMaxChildren = coreagents.LimitMaxChildren
const LimitMaxConcurrent = coreagents.LimitMaxConcurrent
const LimitMaxDepth = coreagents.LimitMaxDepth
const LimitMaxTokens = coreagents.LimitMaxTokens
const LimitMaxToolCalls = coreagents.LimitMaxToolCalls
const LimitMaxTurns = coreagents.LimitMaxTurns
const LimitMaxWallMs = coreagents.LimitMaxWallMs
const LimitTimeout = coreagents.LimitTimeout

type Loop = coreagents.Loop

const MaxTreeDepth = coreagents.MaxTreeDepth
const MaxWallMsLimit = coreagents.MaxWallMsLimit

type MetricEvent = coreagents.MetricEvent

func New(a0 string, a1 coreagents.Spec) *coreagents.Agent  { return coreagents.New(a0, a1) }
func NewRuntime(a0 coreagents.Options) *coreagents.Runtime { return coreagents.NewRuntime(a0) }

type Options = coreagents.Options
type Outcome = coreagents.Outcome

func PathOf(a0 core.Request) []string { return coreagents.PathOf(a0) }

type PostResult = coreagents.PostResult

const ReasonBudget = coreagents.ReasonBudget
const ReasonClosed = coreagents.ReasonClosed
const ReasonError = coreagents.ReasonError
const ReasonInterrupted = coreagents.ReasonInterrupted

func RestoreRuntime(a0 coreagents.Options, a1 []byte) (*coreagents.Runtime, error) {
	return coreagents.RestoreRuntime(a0, a1)
}

type RunOpts = coreagents.RunOpts
type Runtime = coreagents.Runtime
type Spec = coreagents.Spec
type State = coreagents.State

const StateClosed = coreagents.StateClosed
const StateIdle = coreagents.StateIdle
const StateRunning = coreagents.StateRunning
const StateSuspended = coreagents.StateSuspended

type StreamEvent = coreagents.StreamEvent
type TaskResult = coreagents.TaskResult

const TaskStatusClosed = coreagents.TaskStatusClosed
const TaskStatusDone = coreagents.TaskStatusDone
const TaskStatusError = coreagents.TaskStatusError
const TaskStatusIncomplete = coreagents.TaskStatusIncomplete
const TaskStatusInterrupted = coreagents.TaskStatusInterrupted
const TaskStatusPending = coreagents.TaskStatusPending
const TaskStatusTimeout = coreagents.TaskStatusTimeout
const Unlimited = coreagents.Unlimited
