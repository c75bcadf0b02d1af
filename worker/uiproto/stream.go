package uiproto

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"fmt"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
)

// jsonRaw is JSON text written as it is.
type jsonRaw = json.RawMessage

// uiStreamHeader is the response header by which the AI SDK knows a UI
// message stream (its version, "v1").
const uiStreamHeader = "X-Vercel-Ai-Ui-Message-Stream"

// uiPart is one chunk of the UI message stream; the fields a type does not
// use stay empty and are left out.
type uiPart struct {
	Type               string         `json:"type"`
	ID                 string         `json:"id,omitempty"`
	Delta              string         `json:"delta,omitempty"`
	ToolCallID         string         `json:"toolCallId,omitempty"`
	ToolName           string         `json:"toolName,omitempty"`
	Input              jsonRaw        `json:"input,omitempty"`
	Output             jsonRaw        `json:"output,omitempty"`
	ErrorText          string         `json:"errorText,omitempty"`
	ToolMetadata       map[string]any `json:"toolMetadata,omitempty"`
	ApprovalID         string         `json:"approvalId,omitempty"`
	Signature          string         `json:"signature,omitempty"`
	ApprovalDescriptor map[string]any `json:"approvalDescriptor,omitempty"`
	FinishReason       string         `json:"finishReason,omitempty"`
	MessageMetadata    map[string]any `json:"messageMetadata,omitempty"`
	Data               any            `json:"data,omitempty"`
}

// uiStream turns core's stream events into UI message chunks:
//
//	text         → text-start (once per step), text-delta
//	usage        → ends the model call: text-end; the next call opens a new
//	               step (finish-step, start-step)
//	tool_call    → tool-input-available {toolName, input,
//	               toolMetadata: {source, server?, needsApproval?, path?}}
//	tool_result  → tool-output-available {output}, tool-output-error
//	               {errorText}, or tool-output-denied (a declined call);
//	               edited arguments in toolMetadata {edited, args, originalArgs}
//	pending      → at the end: tool-approval-request {approvalId: the
//	               request id, toolCallId, signature: the sealed state token,
//	               approvalDescriptor: what the person is asked}
//	done, error  → finish {finishReason, messageMetadata: {toolnexus:
//	               {status, usage, turns, model} (a team's: {status, agent,
//	               turns, totalTokens})}} or error {errorText}
type uiStream struct {
	sse *worker.SSEWriter
	tk  *core.Toolkit
	// skip is the call a resume answers: the client has its part already.
	skip      string
	step      bool   // a step is open
	handle    string // a team's: the agent whose step is open
	modelDone bool   // the open step's model call has ended
	text      string
	steps     int
}

func (s *uiStream) part(p uiPart) error {
	data, err := worker.MarshalJSON(p)
	if err != nil {
		return err
	}
	b := make([]byte, 0, len(data)+8)
	b = append(b, "data: "...)
	b = append(b, data...)
	return s.sse.Send(append(b, "\n\n"...))
}

func (s *uiStream) startStep() error {
	s.endStep()
	s.step, s.modelDone = true, false
	s.steps++
	return s.part(uiPart{Type: "start-step"})
}

func (s *uiStream) endStep() {
	s.endText()
	if s.step {
		s.part(uiPart{Type: "finish-step"})
		s.step = false
	}
}

func (s *uiStream) endText() {
	if s.text != "" {
		s.part(uiPart{Type: "text-end", ID: s.text})
		s.text = ""
	}
}

// event writes the chunks of one event (not done or error); the error is
// the client's going away.
func (s *uiStream) event(e core.StreamEvent) error {
	switch e.Type {
	case core.EventText:
		if e.Delta == "" {
			return nil
		}
		if !s.step || s.modelDone {
			s.startStep()
		}
		if s.text == "" {
			s.text = fmt.Sprintf("text-%d", s.steps)
			s.part(uiPart{Type: "text-start", ID: s.text})
		}
		return s.part(uiPart{Type: "text-delta", ID: s.text, Delta: e.Delta})
	case core.EventUsage:
		if !s.step || s.modelDone {
			s.startStep()
		}
		s.endText()
		s.modelDone = true
	case core.EventToolCall:
		s.endText()
		return s.toolCall(e, nil)
	case core.EventToolResult:
		return s.toolResult(e)
	}
	return s.sse.Err()
}

// toolCall writes a call's tool-input-available, unless it is the call a
// resume answers; path is a team member's path.
func (s *uiStream) toolCall(e core.StreamEvent, path []string) error {
	if e.ID == s.skip {
		return nil
	}
	meta := map[string]any{}
	if t, ok := s.tk.Get(e.Name); ok {
		meta["source"] = string(t.Source)
		if t.Server != "" {
			meta["server"] = t.Server
		}
		if t.NeedsApproval {
			meta["needsApproval"] = true
		}
	}
	if path != nil {
		meta["path"] = path
	}
	return s.part(uiPart{Type: "tool-input-available", ToolCallID: e.ID, ToolName: e.Name, Input: uiJSON(e.ArgsJSON), ToolMetadata: meta})
}

// toolResult writes a finished call's output, error or denial.
func (s *uiStream) toolResult(e core.StreamEvent) error {
	p := uiPart{Type: "tool-output-available", ToolCallID: e.ID}
	switch {
	case e.Declined:
		p.Type = "tool-output-denied"
	case e.IsError:
		p.Type, p.ErrorText = "tool-output-error", e.Output
	default:
		p.Output, _ = worker.MarshalJSON(e.Output)
	}
	if e.Edited {
		p.ToolMetadata = map[string]any{"edited": true, "args": uiJSON(e.ArgsJSON), "originalArgs": uiJSON(e.OriginalArgs)}
	}
	return s.part(p)
}

// uiJSON is argument text as a JSON value: itself when valid, else a string.
func uiJSON(s string) jsonRaw {
	if s == "" {
		return jsonRaw("{}")
	}
	if jsonx.ValidString(s) {
		return jsonRaw(s)
	}
	b, _ := worker.MarshalJSON(s)
	return b
}

// streamStarter starts one streamed run on the client.
type streamStarter func(ctx context.Context, c *core.Client, tk *core.Toolkit) (<-chan core.StreamEvent, error)

// uiStep returns a RunAgent step that answers with the UI message stream
// (see uiStream), ending with "data: [DONE]". skip is the call a resume
// answers. A failure before the stream starts is plain JSON, as on
// /v1/run.
func uiStep(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, workspace, skip string, start streamStarter) func(*core.Client, *core.Toolkit) (core.RunResult, error) {
	return func(c *core.Client, tk *core.Toolkit) (core.RunResult, error) {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		events, err := start(ctx, c, tk)
		if err != nil {
			return core.RunResult{Status: core.StatusIncomplete, Limit: "error"}, fmt.Errorf("start stream: %w", err)
		}
		w.Header().Set(uiStreamHeader, "v1")
		s := &uiStream{sse: worker.NewSSEWriter(w), tk: tk, skip: skip}
		s.part(uiPart{Type: "start"})
		var final core.StreamEvent
		for e := range events {
			if e.Type == core.EventDone || e.Type == core.EventError {
				final = e
				continue
			}
			if s.event(e) != nil {
				cancel() // the client is gone; core closes the channel once the run unwound
			}
		}
		var res core.RunResult
		if final.Result != nil {
			res = *final.Result
		}
		runErr := final.Err
		if final.Type == "" {
			runErr = errors.New("the stream ended without a result")
		} else if final.Type == core.EventError && runErr == nil {
			runErr = errors.New("the run failed")
		}
		s.endText()
		if runErr == nil {
			var out worker.RunResponse
			if out, runErr = h.FinishRun(cfg, "ui", workspace, res); runErr == nil {
				s.finish(out)
			}
		}
		if runErr != nil {
			h.CountRun("ui", "error")
			_, body := h.RunErrorBody(cfg, res, runErr)
			s.endStep()
			s.part(uiPart{Type: "error", ErrorText: body.Error.Code + ": " + body.Error.Message})
		}
		s.sse.Send([]byte("data: [DONE]\n\n"))
		return res, worker.ErrAnswered
	}
}

// finish writes the end of a run that did not fail (see finishWith).
func (s *uiStream) finish(out worker.RunResponse) {
	meta := map[string]any{"status": out.Status, "usage": out.Usage, "turns": out.Turns, "model": out.Model}
	s.finishWith(out.Status, out.Limit, out.Pending, out.State, out.StateExpiresAt, meta)
}

// finishWith writes a halt's approval request, or its data part when the
// request is not an approval, then finish-step and finish with meta (and
// limit) as messageMetadata.toolnexus.
func (s *uiStream) finishWith(status, limit string, pending *core.Request, state, stateExpiresAt string, meta map[string]any) {
	reason := "stop"
	switch status {
	case core.StatusPending:
		reason = "tool-calls"
		req := *pending
		callID, _ := req.Data["callId"].(string)
		if req.Kind == core.KindApproval && callID != "" {
			desc := map[string]any{"kind": req.Kind, "prompt": req.Prompt, "expiresAt": req.ExpiresAt}
			for _, k := range []string{"tool", "args", "source", "server", "schema", "path"} {
				if v, ok := req.Data[k]; ok {
					desc[k] = v
				}
			}
			s.part(uiPart{Type: "tool-approval-request", ApprovalID: req.ID, ToolCallID: callID, Signature: state, ApprovalDescriptor: desc})
		} else {
			// The protocol has no question, input or relay request: a
			// data part carries it and the token for POST /v1/resume.
			s.part(uiPart{Type: "data-toolnexus-pending", Data: map[string]any{"request": req, "state": state, "stateExpiresAt": stateExpiresAt}})
		}
	case core.StatusDone:
	case core.StatusIncomplete:
		reason = "length"
		if limit == "error" {
			reason = "other"
		}
	default: // a team's other outcomes (interrupted)
		reason = "other"
	}
	s.endStep()
	if limit != "" {
		meta["limit"] = limit
	}
	s.part(uiPart{Type: "finish", FinishReason: reason, MessageMetadata: map[string]any{"toolnexus": meta}})
}
