package core

import "encoding/json"

// The records of a finished call: the transcript's tool call, the result's
// ToolRecord, the tool_result event. They tell what ran: when an approval
// edited the arguments, the edited ones, with the model's beside them.

// finishCall records a call's final result and reports it. When an
// approval edited the call's arguments, the record and the event carry the
// arguments that ran and, beside them, the ones the model asked for.
func (r *run) finishCall(ph *toolPhase, i int, res ToolResult) {
	call := ph.calls[i]
	ph.results[i] = &toolOutcome{id: call.ID, content: res.Output, isError: res.IsError}
	original, edited := ph.edited[i]
	r.record(call, res, original, edited)
	e := StreamEvent{Type: EventToolResult, ID: call.ID, Name: call.Name, Output: res.Output, IsError: res.IsError}
	if edited {
		e.Args, e.OriginalArgs = call.Arguments, original
	}
	r.emitEvent(e)
}

// applyEdits rewrites the turn's assistant message, the last one of the
// transcript while its tool phase runs, so that its tool calls carry the
// arguments that ran (records tell what ran; the originals stay in
// ToolRecord.OriginalArgs and the tool_result events).
func (r *run) applyEdits(ph *toolPhase) {
	if len(ph.edited) == 0 || len(r.tr.msgs) == 0 {
		return
	}
	last := len(r.tr.msgs) - 1
	msg := r.c.wire.withArgs(r.tr.msgs[last], ph.calls, ph.edited)
	r.tr.truncate(last)
	r.tr.add(msg)
	ph.edited = nil
}

// record adds a finished call to RunResult.ToolCalls; original, when
// edited, is what the model asked for before an approval edited it.
func (r *run) record(call ToolCall, res ToolResult, original string, edited bool) {
	rec := ToolRecord{ID: call.ID, Name: call.Name, Args: rawArgs(call.Arguments), Output: res.Output, IsError: res.IsError}
	if edited {
		rec.OriginalArgs = rawArgs(original)
	}
	r.result.ToolCalls = append(r.result.ToolCalls, rec)
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
