// Package uiproto is the Worker's AI SDK UI message stream protocol: POST
// /v1/ui answers the body of the AI SDK's DefaultChatTransport with its UI
// message stream, and GET /v1/ui/<chat id>/stream its reconnect. A run is
// package worker's single-agent run (Handler.RunAgent) or, with "agent", a
// team run of the TeamRunner (Handler.StreamTeam).
package uiproto

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
)

// Mount adds POST /v1/ui and GET /v1/ui/<chat id>/stream to the Worker's
// handler.
func Mount(h *worker.Handler) {
	h.Handle("/v1/ui", worker.Route{Name: "ui", Post: serveUI, Allow: "POST, OPTIONS", API: true, JSON: true})
	h.Handle(worker.UIStreamRoute, worker.Route{Name: "ui_stream", Get: serveUIStream, Allow: "GET, HEAD, OPTIONS", API: true})
}

// POST /v1/ui speaks the AI SDK's UI message stream protocol (issue 25): the
// body DefaultChatTransport sends ({id, messages: UIMessage[], trigger,
// messageId, …}) in, server-sent UI message chunks out (stream.go).
//
// Two kinds of request:
//   - a new turn: the last message is the user's. Its text is the prompt;
//     the messages before it become the transcript (history.go).
//   - an approval response: the last message is the assistant's and one of
//     its tool parts is in state "approval-responded". Its approval carries
//     the sealed state token the halt handed out (approval.signature): the
//     run resumes from the token's transcript, not from the messages, and
//     the token is spent in the APPROVALS ledger first, exactly as
//     /v1/resume does, so an answer runs at most once.

// uiRequest is what serveUI reads of the body.
type uiRequest struct {
	// prompt and history make a new turn.
	prompt  string
	history []any
	// agent names an AGENTS team to run the prompt (team.go).
	agent string
	// approval, when set, answers a halted call instead.
	approval *uiApproval
}

// uiApproval is the one "approval-responded" tool part of the last message,
// with the edited arguments of the body's "approvalArgs", if any.
type uiApproval struct {
	ID, ToolCallID, Token, Reason string
	Approved                      bool
	Args                          map[string]any
}

// serveUI handles POST /v1/ui.
func serveUI(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	cfg, body, ok := worker.BeginJSON(h, w, r, func(v gjson.Result) (gjson.Result, error) {
		if !v.IsObject() {
			return v, errors.New("request body must be a JSON object")
		}
		return v, nil
	})
	if !ok {
		return
	}
	format, err := wire.For(core.Style(cfg.Style))
	if err != nil {
		h.InternalError(w, err)
		return
	}
	req, code, err := decodeUIRequest(body, format)
	if err != nil {
		worker.WriteError(w, httpx.StatusBadRequest, code, err.Error())
		return
	}
	if req.approval != nil {
		resumeUI(h, w, r, cfg, *req.approval)
		return
	}
	if req.agent != "" {
		if h.TeamsUnavailable(w) {
			return
		}
		if h.Options().Trees() == nil {
			h.TreesUnavailable(w)
			return
		}
		uiTeamRun(h, w, r, cfg, req.agent, req.prompt)
		return
	}
	h.RunAgent(r.Context(), w, cfg, "ui", "", uiStep(h, w, r, cfg, "", "", func(ctx context.Context, c *core.Client, tk *core.Toolkit) (<-chan core.StreamEvent, error) {
		return c.StreamWithHistory(ctx, req.prompt, tk, req.history)
	}))
}

// resumeUI answers a halted call: the token is opened and checked against
// the approval part, spent, and the run resumed with the Answer.
func resumeUI(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, a uiApproval) {
	if a.Token == "" {
		worker.WriteError(w, httpx.StatusBadRequest, "unknown_approval", "the approval response for tool call "+worker.QuoteClip(a.ToolCallID)+" answers no request of this Worker (its approval has no signature: the state token the approval request carried); nothing ran")
		return
	}
	st, err := worker.NewSealer(cfg.StateSecret, h.Options().Now).Open(cfg.Style, a.Token)
	if err != nil {
		se, _ := errors.AsType[*worker.StateError](err)
		h.CountRefusedState(se.Code)
		worker.WriteError(w, httpx.StatusBadRequest, se.Code, "approval "+worker.QuoteClip(a.ID)+": "+se.Message)
		return
	}
	callID, _ := st.Pending.Data["callId"].(string)
	switch {
	case st.Pending.Kind != core.KindApproval:
		worker.WriteError(w, httpx.StatusBadRequest, "unknown_approval", "approval "+worker.QuoteClip(a.ID)+" answers a "+worker.QuoteClip(st.Pending.Kind)+" request, not an approval; use /v1/resume")
		return
	case a.ID != st.Pending.ID:
		worker.WriteError(w, httpx.StatusBadRequest, "answer_mismatch", "approval id "+worker.QuoteClip(a.ID)+" does not match the pending request "+worker.QuoteClip(st.Pending.ID))
		return
	case callID == "" || a.ToolCallID != callID:
		worker.WriteError(w, httpx.StatusBadRequest, "unknown_approval", "approval "+worker.QuoteClip(a.ID)+" is for tool call "+worker.QuoteClip(callID)+", not "+worker.QuoteClip(a.ToolCallID)+"; nothing ran")
		return
	}
	answer := core.Answer{ID: a.ID, Ok: a.Approved}
	if !a.Approved {
		answer = core.AnswerDeclined(a.ID, a.Reason)
	} else if a.Args != nil {
		answer.Data = map[string]any{"args": a.Args}
		if err := core.CheckApprovalEdit(st.Pending, answer); err != nil {
			// Checked before the token is spent: the caller can fix the edit and answer again.
			worker.WriteError(w, httpx.StatusBadRequest, "invalid_args", err.Error()+"; nothing ran and the approval can still be answered")
			return
		}
	}
	if answer.Data == nil {
		answer.Data = map[string]any{}
	}
	answer.Data[approval.FromKey] = approval.FromAISDK // for the record
	if st.Agent != "" && h.TeamsUnavailable(w) {
		return
	}
	if st.Agent != "" && h.Options().Trees() == nil {
		h.TreesUnavailable(w)
		return
	}
	if st.Agent != "" {
		if h.Spend(w, r, st) {
			uiTeamResume(h, w, r, cfg, st, answer, callID)
		}
		return
	}
	j, ok := h.SpendJournaled(w, r, st, answer, "ai-sdk")
	if !ok {
		return
	}
	h.RunAgent(r.Context(), w, cfg, "ui", st.Workspace, uiStep(h, w, r, cfg, st.Workspace, callID, func(ctx context.Context, c *core.Client, tk *core.Toolkit) (<-chan core.StreamEvent, error) {
		if j != nil {
			return j.Stream(ctx, c, tk)
		}
		return c.StreamWithAnswer(ctx, tk, st.History(), st.Pending, answer)
	}))
}

// decodeUIRequest reads a DefaultChatTransport body: "messages" must be a
// non-empty list of UI messages ({role, parts: [{type, …}]}); other fields
// (id, trigger, messageId, a front-end's own body) are not read, but for
// "approvalArgs" beside an approval response: the edited arguments the
// approved call runs with (the protocol's response has no field for them;
// a front-end sends them as addToolApprovalResponse's options.body). The code
// is the error's for the 400 answer.
func decodeUIRequest(body gjson.Result, format wire.Format) (uiRequest, string, error) {
	msgs := body.Get("messages")
	if !msgs.Exists() {
		return uiRequest{}, "missing_field", errors.New(`"messages" is required: the chat's UI messages ({id, role, parts}), as the AI SDK's DefaultChatTransport sends them`)
	}
	if !msgs.IsArray() {
		return uiRequest{}, "invalid_field", errors.New(`"messages" must be a list of UI messages`)
	}
	list := msgs.Array()
	if len(list) == 0 {
		return uiRequest{}, "invalid_field", errors.New(`"messages" must not be empty`)
	}
	for i, m := range list {
		if err := checkUIMessage(m, i); err != nil {
			return uiRequest{}, "invalid_field", err
		}
	}
	agent := body.Get("agent")
	if agent.Exists() && agent.Type != gjson.String {
		return uiRequest{}, "invalid_field", errors.New(`"agent" must be a string: an agent declared in AGENTS`)
	}
	last := list[len(list)-1]
	switch last.Get("role").String() {
	case "user":
		prompt := uiText(last)
		if strings.TrimSpace(prompt) == "" {
			return uiRequest{}, "missing_field", fmt.Errorf(`messages[%d] (the last) has no text: a user message needs a text part`, len(list)-1)
		}
		if agent.String() != "" {
			// A team keeps its own transcripts: the prompt is its task.
			return uiRequest{prompt: prompt, agent: agent.String()}, "", nil
		}
		return uiRequest{prompt: prompt, history: uiHistory(list[:len(list)-1], format)}, "", nil
	case "assistant":
		var found []uiApproval
		for _, p := range last.Get("parts").Array() {
			if isUIToolPart(p) && p.Get("state").String() == "approval-responded" {
				ap := p.Get("approval")
				found = append(found, uiApproval{
					ID:         ap.Get("id").String(),
					ToolCallID: p.Get("toolCallId").String(),
					Token:      ap.Get("signature").String(),
					Reason:     ap.Get("reason").String(),
					Approved:   ap.Get("approved").Type == gjson.True,
				})
			}
		}
		switch len(found) {
		case 0:
			return uiRequest{}, "invalid_field", fmt.Errorf(`messages[%d] (the last) is the assistant's and answers no approval: send a user message, or an approval response (addToolApprovalResponse)`, len(list)-1)
		case 1:
			if edit := body.Get("approvalArgs"); edit.Exists() {
				if !edit.IsObject() {
					return uiRequest{}, "invalid_field", errors.New(`"approvalArgs" must be an object: the arguments the approved call runs with instead`)
				}
				args, err := jsonx.DecodeObject([]byte(edit.Raw))
				if err != nil {
					return uiRequest{}, "invalid_field", fmt.Errorf(`"approvalArgs": %w`, err)
				}
				found[0].Args = args
			}
			return uiRequest{approval: &found[0]}, "", nil
		}
		return uiRequest{}, "invalid_field", fmt.Errorf(`messages[%d] answers %d approvals; a halted run waits on one at a time`, len(list)-1, len(found))
	}
	return uiRequest{}, "invalid_field", fmt.Errorf(`messages[%d] (the last) must be the user's or, answering an approval, the assistant's`, len(list)-1)
}

// checkUIMessage checks the shape of messages[i]: an object with a role
// of system, user or assistant and a list of parts, each an object with a
// string "type".
func checkUIMessage(m gjson.Result, i int) error {
	if !m.IsObject() {
		return fmt.Errorf("messages[%d] must be a UI message object ({id, role, parts})", i)
	}
	switch role := m.Get("role"); role.String() {
	case "system", "user", "assistant":
		if role.Type != gjson.String {
			return fmt.Errorf(`messages[%d].role must be "system", "user" or "assistant"`, i)
		}
	default:
		return fmt.Errorf(`messages[%d].role must be "system", "user" or "assistant"`, i)
	}
	parts := m.Get("parts")
	if !parts.IsArray() {
		return fmt.Errorf("messages[%d].parts must be a list of parts", i)
	}
	for j, p := range parts.Array() {
		if !p.IsObject() || p.Get("type").Type != gjson.String {
			return fmt.Errorf(`messages[%d].parts[%d] must be an object with a string "type"`, i, j)
		}
	}
	return nil
}

// serveUIStream answers GET /v1/ui/<chat id>/stream (worker.UIStreamRoute),
// where the AI SDK's DefaultChatTransport reconnects to a chat's running
// response (useChat's resume option), with 204, which the AI SDK reads as
// "no active stream": a run lives only as long as the request that
// started it, and a halted one waits in its approval request's signature.
func serveUIStream(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	w.WriteHeader(httpx.StatusNoContent)
}
