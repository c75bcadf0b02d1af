package core

import (
	"encoding/json"

	"github.com/toolnexus/wasm/core/wire"
)

// The records of a finished call: the transcript's tool call, the result's
// ToolCall record, the tool_result event. They tell what ran: when an approval
// edited the arguments, the edited ones, with the model's beside them.

// finishCall records a call's final result and reports it. When an
// approval edited the call's arguments, the record and the event carry the
// arguments that ran and, beside them, the ones the model asked for. ran
// is the argument map the tool ran with (nil when it did not run: the
// call's own arguments are decoded instead).
func (r *run) finishCall(ph *toolPhase, i int, res ToolResult, ran map[string]any) {
	call := ph.calls[i]
	if ran == nil {
		ran, _ = parseArgs(call.Arguments)
	}
	ph.results[i] = &toolOutcome{ID: call.ID, Content: res.Output, IsError: res.IsError}
	rec := ToolCall{ID: call.ID, Name: call.Name, Args: ran, RawArgs: rawArgs(call.Arguments), Output: res.Output, IsError: res.IsError, Metadata: res.Metadata}
	e := StreamEvent{Type: EventToolResult, ID: call.ID, Name: call.Name, Output: res.Output, IsError: res.IsError}
	ph.mu.Lock()
	asked := ""
	if ph.asked != nil {
		asked = ph.asked[i]
	}
	ph.mu.Unlock()
	if asked != "" {
		rec.OriginalArgs, rec.Edited = rawArgs(asked), true
		e.ArgsJSON, e.OriginalArgs, e.Edited = call.Arguments, asked, true
	}
	if _, ok := res.Metadata[declinedKey].(string); ok {
		rec.Declined, e.Declined = true, true
	}
	ph.records[i] = &rec
	r.emitEvent(e)
}

// applyEdits rewrites the turn's assistant message, the last one of the
// transcript while its tool phase runs, so that its tool calls carry the
// arguments that ran (records tell what ran; the originals stay in
// ToolCall.OriginalArgs and the tool_result events).
func (r *run) applyEdits(ph *toolPhase) {
	if ph.asked == nil || len(r.tr.msgs) == 0 {
		return
	}
	msg := wire.WithArgs(r.c.wire, r.tr.msgs[len(r.tr.msgs)-1], ph.calls, ph.asked)
	r.tr.setLast(msg)
	ph.asked = nil
}

// rawArgs keeps argument text that is JSON as it is, and encodes any other
// text (invalid, or nested too deeply) as a JSON string.
func rawArgs(s string) json.RawMessage {
	args := json.RawMessage(s)
	if !validJSON(args) {
		args, _ = marshalJSON(s)
	}
	return args
}
