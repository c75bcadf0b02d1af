package worker

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// RunRequest is the body of POST /v1/run.
type RunRequest struct {
	Prompt   string            `json:"prompt"`
	Messages []json.RawMessage `json:"messages"`
	// Stream answers with server-sent events (stream.go).
	Stream bool `json:"stream"`
	// Conversation names a transcript kept in CONVERSATIONS_KV (kvstore.go).
	Conversation string `json:"conversation"`
	// Workspace names the files the built-in file tools work on (files.go);
	// a state token carries it to /v1/resume.
	Workspace string `json:"workspace"`
	// Agent names a team declared in AGENTS to run the prompt (agents.go).
	Agent string `json:"agent"`
}

// resumeRequest is the body of POST /v1/resume. Ok is a pointer so that a
// missing "ok" is an error rather than a silent decline.
type resumeRequest struct {
	State  string `json:"state"`
	Stream bool   `json:"stream"`
	// Conversation saves the resumed transcript back to CONVERSATIONS_KV.
	Conversation string        `json:"conversation"`
	Answer       *resumeAnswer `json:"answer"`
}

// resumeAnswer is the "answer" of a resumeRequest.
type resumeAnswer struct {
	ID     string         `json:"id"`
	Ok     *bool          `json:"ok"`
	Data   map[string]any `json:"data"`
	Reason string         `json:"reason"`
}

// RunResponse is a RunResult plus, when the run halted, the sealed state
// the caller posts back to /v1/resume.
type RunResponse struct {
	core.RunResult
	State          string `json:"state,omitempty"`
	StateExpiresAt string `json:"stateExpiresAt,omitempty"`
	// DecisionsHead is the hash of the last of the response's decisions
	// (RunResult.Decisions, chained as a record of their own).
	DecisionsHead string `json:"decisionsHead,omitempty"`
}

// toolInfo is one entry of GET /v1/tools.
type toolInfo struct {
	Name          string          `json:"name"`
	Description   string          `json:"description"`
	InputSchema   core.JSONSchema `json:"inputSchema"`
	Source        core.ToolSource `json:"source"`
	NeedsApproval bool            `json:"needsApproval"`
	AlwaysAsk     bool            `json:"alwaysAsk,omitempty"`
}

func (h *Handler) serveTools(w httpx.ResponseWriter, r *httpx.Request) {
	tk, ok := h.RequestToolkit(r.Context(), w, "")
	if !ok {
		return
	}
	defer tk.Close()
	out := []toolInfo{}
	for _, t := range tk.Tools() {
		out = append(out, toolInfo{t.Name, t.Description, t.InputSchema, t.Source, t.NeedsApproval, t.AlwaysAsk})
	}
	writeJSON(w, httpx.StatusOK, map[string]any{"tools": out})
}

// ServeRun is POST /v1/run. worker/runs also drives a durable run through
// it (into its sink, as the ResponseWriter), so that every check of the
// route applies; the routing's own (origin, bearer token, Content-Type,
// body limit) are then the caller's.
func (h *Handler) ServeRun(w httpx.ResponseWriter, r *httpx.Request) {
	cfg, req, ok := BeginJSON(h, w, r, DecodeRunRequest)
	if !ok {
		return
	}
	if strings.TrimSpace(req.Prompt) == "" {
		writeError(w, httpx.StatusBadRequest, "missing_field", `"prompt" is required and must be a non-empty string`)
		return
	}
	if !checkWorkspace(w, req.Workspace) {
		return
	}
	if req.Agent != "" {
		if !h.TeamsUnavailable(w) {
			h.teams.Run(h, w, r, cfg, req)
		}
		return
	}
	history := make([]any, len(req.Messages))
	for i, m := range req.Messages {
		history[i] = m
	}
	if req.Conversation != "" {
		h.serveConversation(w, r, cfg, req)
		return
	}
	if req.Stream {
		h.RunAgent(r.Context(), w, cfg, "run", req.Workspace, h.streamStep(w, r, cfg, "run", req.Workspace, func(ctx context.Context, c *core.Client, tk *core.Toolkit) (<-chan core.StreamEvent, error) {
			return c.StreamWithHistory(ctx, req.Prompt, tk, history)
		}, nil))
		return
	}
	h.RunAgent(r.Context(), w, cfg, "run", req.Workspace, func(c *core.Client, tk *core.Toolkit) (core.RunResult, error) {
		return c.RunWithHistory(r.Context(), req.Prompt, tk, history)
	})
}

// ServeResume is POST /v1/resume, which worker/runs drives as ServeRun.
func (h *Handler) ServeResume(w httpx.ResponseWriter, r *httpx.Request) {
	cfg, req, ok := BeginJSON(h, w, r, decodeResumeRequest)
	if !ok {
		return
	}
	switch {
	case req.State == "":
		writeError(w, httpx.StatusBadRequest, "missing_field", `"state" is required: the state token /v1/run returned with status "pending"`)
		return
	case req.Answer == nil:
		writeError(w, httpx.StatusBadRequest, "missing_field", `"answer" is required: {"id": <pending.id>, "ok": true|false, "reason"?: string, "data"?: object}`)
		return
	case req.Answer.ID == "":
		writeError(w, httpx.StatusBadRequest, "missing_field", `"answer.id" is required and must echo pending.id`)
		return
	case req.Answer.Ok == nil:
		writeError(w, httpx.StatusBadRequest, "missing_field", `"answer.ok" is required (true approves, false declines)`)
		return
	}
	save, ok := h.conversationSaver(w, req.Conversation)
	if !ok {
		return
	}
	st, err := NewSealer(cfg.StateSecret, h.opts.Now).Open(cfg.Style, req.State)
	if err != nil {
		se, _ := errors.AsType[*StateError](err)
		h.metrics.refusedState(se.Code)
		writeError(w, httpx.StatusBadRequest, se.Code, se.Message)
		return
	}
	if req.Answer.ID != st.Pending.ID {
		writeError(w, httpx.StatusBadRequest, "answer_mismatch", "answer.id "+QuoteClip(req.Answer.ID)+" does not match the pending request "+QuoteClip(st.Pending.ID))
		return
	}
	answer := answerFromCaller(core.Answer{ID: req.Answer.ID, Ok: *req.Answer.Ok, Data: req.Answer.Data, Reason: req.Answer.Reason}, st.Pending.Kind, "api")
	if err := core.CheckApprovalEdit(st.Pending, answer); err != nil {
		// Checked before the token is spent, so the caller can fix the edit and resume again.
		writeError(w, httpx.StatusBadRequest, "invalid_args", err.Error()+"; nothing ran and the state token is still good")
		return
	}
	if st.Agent != "" {
		if req.Conversation != "" {
			writeError(w, httpx.StatusBadRequest, "unsupported_field", `"conversation" cannot be combined with an agent team's state token; nothing ran and the token is still good`)
			return
		}
		if h.TeamsUnavailable(w) {
			return
		}
		if h.opts.Trees() == nil {
			h.TreesUnavailable(w)
			return
		}
	}
	if st.Agent != "" {
		if h.Spend(w, r, st) {
			h.teams.Resume(h, w, r, cfg, st, answer, req.Stream)
		}
		return
	}
	j, ok := h.SpendJournaled(w, r, st, answer, "api")
	if !ok {
		return
	}
	if req.Stream {
		h.RunAgent(r.Context(), w, cfg, "resume", st.Workspace, h.streamStep(w, r, cfg, "resume", st.Workspace, func(ctx context.Context, c *core.Client, tk *core.Toolkit) (<-chan core.StreamEvent, error) {
			if j != nil {
				return c.StreamContinue(ctx, tk, j)
			}
			return c.StreamWithAnswer(ctx, tk, st.History(), st.Pending, answer)
		}, func(res core.RunResult, err error) error {
			j.HandedOut(r.Context(), res, err)
			return saveAfter(save, res, err)
		}))
		return
	}
	h.RunAgent(r.Context(), w, cfg, "resume", st.Workspace, func(c *core.Client, tk *core.Toolkit) (core.RunResult, error) {
		var res core.RunResult
		var err error
		if j != nil {
			res, err = c.Continue(r.Context(), tk, j)
		} else {
			res, err = c.RunWithAnswer(r.Context(), tk, st.History(), st.Pending, answer)
		}
		j.HandedOut(r.Context(), res, err)
		return res, saveAfter(save, res, err)
	})
}

// tools builds the tool set for one request.
func (h *Handler) tools() []core.Tool {
	return h.opts.Tools(ToolEnv{Transport: h.opts.Transport, Getenv: h.opts.Getenv})
}

// RunAgent builds the toolkit (its file tools on workspace) and client for
// cfg, runs step, and writes the result: the RunResult (sealed into a state
// token when pending) or a 502; nothing when step returns ErrAnswered.
func (h *Handler) RunAgent(ctx context.Context, w httpx.ResponseWriter, cfg Config, endpoint, workspace string, step func(*core.Client, *core.Toolkit) (core.RunResult, error)) {
	tk, ok := h.RequestToolkit(ctx, w, workspace)
	if !ok {
		return
	}
	defer tk.Close()
	client := h.AgentClient(cfg, tk, cfg.Timeout)
	res, err := step(client, tk)
	if errors.Is(err, ErrAnswered) {
		return
	}
	if err != nil {
		h.metrics.run(endpoint, "error")
		h.runError(w, cfg, res, err)
		return
	}
	out, err := h.FinishRun(cfg, endpoint, workspace, res)
	if err != nil {
		h.InternalError(w, err)
		return
	}
	writeJSON(w, httpx.StatusOK, out)
}

// AgentClient is the client a run of cfg uses over tk: the Worker's model
// settings, its skills in the system prompt, and timeout bounding each run
// (0: none beyond the caller's context).
//
// The client is made once per configuration and system prompt (builds),
// with its request params encoded once; a run keeps its own state and
// takes its toolkit as an argument, so one client serves every request
// that has them. With a conversation store
// (CONVERSATIONS_KV, the request's binding) each request makes its own.
func (h *Handler) AgentClient(cfg Config, tk *core.Toolkit, timeout time.Duration) *core.Client {
	store := h.conversationStore()
	prompt := withSkills(cfg.SystemPrompt, tk) // all a client takes of tk
	build := func() *core.Client {
		return core.CreateClient(core.ClientOptions{
			BaseURL:      cfg.BaseURL,
			Style:        core.Style(cfg.Style),
			Model:        cfg.Model,
			APIKey:       cfg.APIKey,
			SystemPrompt: prompt,
			MaxTurns:     cfg.MaxTurns,
			Retries:      cfg.Retries,
			TimeoutMs:    int(timeout / time.Millisecond),
			Transport:    h.opts.Transport,
			Store:        store,
			OnMetric:     h.coreMetrics.Record,
		})
	}
	if store != nil {
		return build()
	}
	return h.builds.client(clientKey{cfg.BaseURL, cfg.Style, cfg.Model, cfg.APIKey, prompt, cfg.MaxTurns, cfg.Retries, timeout}, build)
}

// FinishRun records a finished run (counted, logged) and shapes its
// response: lists as arrays, and a pending run's transcript sealed into a
// state token.
func (h *Handler) FinishRun(cfg Config, endpoint, workspace string, res core.RunResult) (RunResponse, error) {
	h.metrics.run(endpoint, res.Status)
	if h.runLine != nil {
		// One line per request: each is a console.log on Workers, which
		// costs workerd about as much as a small request's own work.
		*h.runLine = " status=" + res.Status + " turns=" + strconv.Itoa(res.Turns) + " toolCalls=" + strconv.Itoa(res.ToolCallCount)
	} else {
		h.opts.Logf("worker: %s status=%s turns=%d toolCalls=%d", endpoint, res.Status, res.Turns, res.ToolCallCount)
	}
	out := RunResponse{RunResult: res}
	out.Decisions, out.DecisionsHead = chainDecisions(res.Decisions)
	// Lists are always arrays on the wire, never null.
	if out.ToolCalls == nil {
		out.ToolCalls = []core.ToolCall{}
	}
	if out.Messages == nil {
		out.Messages = []any{}
	}
	if res.Status == core.StatusPending && res.Pending != nil {
		pending := *res.Pending
		token, st, err := NewSealer(cfg.StateSecret, h.opts.Now).Seal(cfg.Style, workspace, pending, res.Messages, cfg.StateTTL)
		if err != nil {
			return RunResponse{}, err
		}
		out.State = token
		out.StateExpiresAt = time.Unix(st.ExpiresAt, 0).UTC().Format(time.RFC3339)
		if pending.ExpiresAt == "" {
			pending.ExpiresAt = out.StateExpiresAt
			out.Pending = &pending
		}
	}
	return out, nil
}

// runError answers a failed run. A provider's non-2xx reply becomes 502
// naming its status; its body is not passed on (providers echo parts of a
// bad key). The partial result goes along so that a caller learns which
// tools already ran.
func (h *Handler) runError(w httpx.ResponseWriter, cfg Config, partial core.RunResult, err error) {
	status, body := h.RunErrorBody(cfg, partial, err)
	writeJSON(w, status, body)
}

// RunErrorBody is the status and body runError answers.
func (h *Handler) RunErrorBody(cfg Config, partial core.RunResult, err error) (int, ErrorBody) {
	body := ErrorBody{Error: APIError{Code: "upstream_error"}}
	if len(partial.ToolCalls) > 0 {
		partial.Pending = nil
		body.Result = partial
	}
	status := httpx.StatusBadGateway
	if ce, ok := errors.AsType[*ConversationError](err); ok {
		status, body.Error.Code, body.Error.Message = ce.status(), ce.Code, ce.Message
		if ce.Err != nil {
			h.opts.Logf("worker: conversation store: %v", ce.Err)
		}
	} else if pe, ok := errors.AsType[*core.ProviderError](err); ok {
		body.Error.UpstreamStatus = pe.Status
		body.Error.Message = fmt.Sprintf("the LLM provider answered HTTP %d", pe.Status)
	} else if errors.Is(err, context.DeadlineExceeded) {
		status = httpx.StatusGatewayTimeout
		body.Error.Code = "upstream_timeout"
		body.Error.Message = "the run timed out"
	} else {
		body.Error.Message = "the run failed: " + Redact(err.Error(), cfg.APIKey, cfg.StateSecret, cfg.APIToken)
	}
	h.opts.Logf("worker: run failed: %s", body.Error.Message)
	return status, body
}

// InternalError logs err and answers 500 internal, naming nothing.
func (h *Handler) InternalError(w httpx.ResponseWriter, err error) {
	h.opts.Logf("worker: internal error: %v", err)
	writeError(w, httpx.StatusInternalServerError, "internal", "internal error")
}

// CheckConfig reads and checks the whole configuration: an error names
// every setting that is missing or invalid (ConfigErrors).
func (h *Handler) CheckConfig() (Config, error) {
	cfg, problems := h.checkConfig()
	return cfg, problems.err()
}

// RequestConfig reads and checks the whole configuration, answering 500
// naming every setting that is missing or invalid.
func (h *Handler) RequestConfig(w httpx.ResponseWriter) (Config, bool) {
	cfg, problems := h.checkConfig()
	if err := problems.err(); err != nil {
		h.WriteConfigError(w, err)
		return Config{}, false
	}
	return cfg, true
}

// BeginJSON starts every JSON route: the configuration (500 naming a
// missing or invalid setting), then the body, read (413 over the limit, 400
// when empty or not JSON) and decoded (400, decoding errors before trailing
// data, as encoding/json's Decoder did). When ok is false the answer has
// been written.
func BeginJSON[T any](h *Handler, w httpx.ResponseWriter, r *httpx.Request, decode func(gjson.Result) (T, error)) (cfg Config, req T, ok bool) {
	if cfg, ok = h.RequestConfig(w); !ok {
		return cfg, req, false
	}
	body, err := ReadJSONBody(r)
	if err != nil {
		WriteBodyError(w, err)
		return cfg, req, false
	}
	if req, err = decode(body); err != nil {
		WriteBodyError(w, err)
		return cfg, req, false
	}
	return cfg, req, true
}

// WriteBodyError answers a request body that could not be read or decoded
// (ReadJSONBody's or ReadBodyObject's error).
func WriteBodyError(w httpx.ResponseWriter, err error) {
	if tooBig, ok := errors.AsType[*httpx.MaxBytesError](err); ok {
		writeError(w, httpx.StatusRequestEntityTooLarge, "body_too_large", fmt.Sprintf("request body exceeds %d bytes (MAX_BODY_BYTES)", tooBig.Limit))
		return
	}
	switch {
	case errors.Is(err, errEmptyBody):
		writeError(w, httpx.StatusBadRequest, "bad_json", err.Error())
	case errors.Is(err, jsonx.ErrTooDeep):
		writeError(w, httpx.StatusBadRequest, "json_too_deep", "request body is refused: "+err.Error())
	case errors.Is(err, jsonx.ErrInvalid):
		writeError(w, httpx.StatusBadRequest, "bad_json", "request body is not valid JSON")
	default:
		writeError(w, httpx.StatusBadRequest, "bad_json", "request body: "+err.Error())
	}
}

// Redact removes every non-empty secret from s.
func Redact(s string, secrets ...string) string {
	for _, k := range secrets {
		if len(k) >= 4 {
			s = strings.ReplaceAll(s, k, "[redacted]")
		}
	}
	return s
}
