package wire

// Stream assembles one streamed reply from its server-sent events,
// reporting text and tool-call deltas as they come.
type Stream interface {
	// Event handles one SSE event; done reports the reply is complete.
	// emit may be nil.
	Event(name string, data []byte, emit func(Delta)) (done bool, err error)
	// Response returns what was assembled, also after an error (partial).
	Response() LLMResponse
	// Complete reports whether the reply's end was seen (some servers
	// close the stream after the finish reason without a terminator).
	Complete() bool
}

// Delta is one piece of a streamed reply. Its Type values are core's
// stream event types of the same name (core.EventText,
// core.EventToolCallDelta), which core builds from it.
type Delta struct {
	_     noCompare
	Type  string
	Text  string // DeltaText
	Index int    // DeltaToolCall: the call's position in the reply
	ID    string // DeltaToolCall: the call id, on a call's first delta
	Name  string // DeltaToolCall: the tool name, on a call's first delta
	Args  string // DeltaToolCall: the next piece of the JSON arguments
}

// Delta types.
const (
	DeltaText     = "text"
	DeltaToolCall = "tool_call_delta"
)
