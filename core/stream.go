package core

import "context"

// StreamEvent is one event of a streamed run.
type StreamEvent struct {
	Type  string `json:"type"`
	Delta string `json:"delta,omitempty"` // text
	Name  string `json:"name,omitempty"`  // tool_call, tool_result
	ID    string `json:"id,omitempty"`    // tool_call, tool_result: the call id
	Index int    `json:"index,omitempty"` // tool_call_delta: the call's position in the reply
	// Args are a tool_call's arguments as Go values (the Go port's field);
	// ArgsJSON is the same as JSON text, which is what the event's JSON
	// carries. On a tool_result whose arguments an approval edited,
	// ArgsJSON holds the ones that ran; on a tool_call_delta, a piece.
	Args     map[string]any `json:"-"`
	ArgsJSON string         `json:"args,omitempty"`
	// OriginalArgs is set on a tool_result whose arguments an approval
	// edited: what the model asked for (Args is what ran).
	OriginalArgs string     `json:"originalArgs,omitempty"`
	Output       string     `json:"output,omitempty"`   // tool_result
	IsError      bool       `json:"isError,omitempty"`  // tool_result
	Edited       bool       `json:"edited,omitempty"`   // tool_result: an approval replaced the arguments
	Declined     bool       `json:"declined,omitempty"` // tool_result: a person declined the call
	Usage        *Usage     `json:"usage,omitempty"`    // usage: one model call's tokens; done: the run's total
	Result       *RunResult `json:"result,omitempty"`   // done, error: the (partial) result
	Request      *Request   `json:"request,omitempty"`  // pending
	Err          error      `json:"-"`                  // error
}

// Stream event types.
const (
	EventText     = "text"      // a text delta from the model
	EventToolCall = "tool_call" // the loop is about to run a call
	// EventToolCallDelta is a piece of a tool call as the provider streams
	// it; only Client.TranslateStream reports these.
	EventToolCallDelta = "tool_call_delta"
	EventToolResult    = "tool_result" // a call finished
	EventPending       = "pending"     // a call suspended: sent before WaitFor runs, or before a halt
	EventUsage         = "usage"       // a model call finished
	EventDone          = "done"        // the run ended; Result is set
	EventError         = "error"       // the run failed; Err and the partial Result are set
)

// Stream runs like Run but streams the model's replies over server-sent
// events and reports progress as events. The channel ends with one "done"
// or "error" event and is then closed. Stop reading only by cancelling ctx.
func (c *Client) Stream(ctx context.Context, prompt string, tk *Toolkit) (<-chan StreamEvent, error) {
	return c.StreamWithHistory(orBackground(ctx), prompt, tk, nil)
}

// StreamWithHistory is Stream continuing an earlier transcript.
func (c *Client) StreamWithHistory(ctx context.Context, prompt string, tk *Toolkit, history []any) (<-chan StreamEvent, error) {
	ctx = orBackground(ctx)
	r, err := c.newRun(tk, history)
	if err != nil {
		return nil, err
	}
	r.appendMessage(c.wire.UserMessage(prompt))
	return r.startStream(ctx, func() (RunResult, error) { return r.loop(ctx, nil) }), nil
}

// startStream runs body on a goroutine with the run's events going to the
// returned channel, which ends with one "done" or "error" event.
func (r *run) startStream(ctx context.Context, body func() (RunResult, error)) <-chan StreamEvent {
	ch := make(chan StreamEvent, 64)
	r.stream = func(e StreamEvent) {
		select {
		case ch <- e:
		case <-ctx.Done():
		}
	}
	go func() {
		defer close(ch)
		res, err := body()
		// As in the Go port, "done" carries the run's total usage too.
		final := StreamEvent{Type: EventDone, Result: &res, Usage: &res.Usage}
		if err != nil {
			final = StreamEvent{Type: EventError, Err: err, Result: &res}
		}
		// The last event carries the result, so it waits for the reader;
		// after a cancellation it is only left in the buffer if there is room.
		if ctx.Err() == nil {
			ch <- final
			return
		}
		select {
		case ch <- final:
		default:
		}
	}()
	return ch
}

// emitEvent sends e to the stream, if the run streams.
func (r *run) emitEvent(e StreamEvent) {
	if r.stream != nil {
		r.stream(e)
	}
}
