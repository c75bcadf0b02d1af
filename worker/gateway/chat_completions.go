package gateway

import (
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"fmt"
	"slices"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/internal/textx"
	"github.com/toolnexus/wasm/worker"
)

// Mount adds POST /v1/chat/completions and GET /v1/models to the Worker's
// handler.
func Mount(h *worker.Handler) {
	h.Handle("/v1/chat/completions", worker.Route{Name: "chat_completions", Post: serveChatCompletions, Allow: "POST, OPTIONS", API: true, JSON: true})
	h.Handle("/v1/models", worker.Route{Name: "models", Get: serveModels, Allow: "GET, HEAD, OPTIONS", API: true})
}

// handler is the Worker's handler bound to one request, as the gateway
// uses it.
type handler struct {
	*worker.Handler
	opts *worker.Options
}

func serveChatCompletions(wh *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	handler{wh, wh.Options()}.serveChatCompletions(w, r)
}

func serveModels(wh *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	handler{wh, wh.Options()}.serveModels(w, r)
}

// chatRequest is the part of an OpenAI chat-completions request the
// gateway uses. Other fields (temperature, tool_choice, …) are accepted
// and ignored: the Worker's settings decide how the model is called.
type chatRequest struct {
	Model    string            `json:"model"`
	Messages []json.RawMessage `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
	Stream   bool              `json:"stream"`
	N        *int              `json:"n"`
	// IncludeUsage is stream_options.include_usage: a streamed answer ends
	// with a chunk that has the usage and no choices.
	IncludeUsage bool `json:"-"`
}

// chatCompletion is an OpenAI chat.completion object.
type chatCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Usage   chatUsage    `json:"usage"`
}

type chatChoice struct {
	Index        int         `json:"index"`
	Message      chatMessage `json:"message"`
	FinishReason string      `json:"finish_reason"`
	Logprobs     any         `json:"logprobs"`
}

type chatMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   any            `json:"refusal"`
	ToolCalls []chatToolCall `json:"tool_calls,omitempty"`
}

type chatToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function chatToolFunction `json:"function"`
}

type chatToolFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// chatRoles are the message roles the gateway passes on.
var chatRoles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true, "tool": true}

// serveChatCompletions is POST /v1/chat/completions: an OpenAI-compatible
// front for the configured model (either style) over core's
// Client.Translate — one model call, no tool runs, no SYSTEM_PROMPT added.
// "model" must be one the Worker serves (worker.Models; LLM_MODEL when
// absent). With "stream": true the answer is OpenAI's server-sent chunks, written as
// the model streams (chat_stream.go).
func (h handler) serveChatCompletions(w httpx.ResponseWriter, r *httpx.Request) {
	cfg, req, ok := worker.BeginJSON(h.Handler, w, r, decodeChatRequest)
	if !ok {
		return
	}
	if msg := validateChat(req); msg != "" {
		worker.WriteError(w, httpx.StatusBadRequest, "invalid_request", msg)
		return
	}
	if req.Model == "" {
		req.Model = cfg.Model
	}
	// LoadConfig checked MODELS: the error cannot happen here.
	if models, _ := worker.Models(h.opts.Getenv, cfg.Model); !slices.Contains(models, req.Model) {
		unknownModel(w, models, req.Model)
		return
	}
	client := core.CreateClient(core.ClientOptions{
		BaseURL:   cfg.BaseURL,
		Style:     core.Style(cfg.Style),
		Model:     cfg.Model,
		APIKey:    cfg.APIKey,
		Retries:   cfg.Retries,
		Transport: h.opts.Transport,
		OnMetric:  h.CoreMetrics().Record,
	})
	treq := core.TranslateRequest{Model: req.Model, Messages: rawList(req.Messages), Tools: rawList(req.Tools)}
	if req.Stream {
		h.streamChatCompletion(w, r, cfg, client, treq, req.IncludeUsage)
		return
	}
	res, err := client.Translate(r.Context(), treq)
	if err != nil {
		h.CountRun("chat_completions", "error")
		status, body := h.RunErrorBody(cfg, core.RunResult{}, err)
		worker.WriteJSON(w, status, body)
		return
	}
	h.CountRun("chat_completions", core.StatusDone)
	worker.WriteJSON(w, httpx.StatusOK, h.chatCompletion(res))
}

// unknownModel is the 400 of a model the Worker does not list: the
// gateway calls the provider with the Worker's key, so a caller picks only
// among models (worker.Models), which the answer names as GET /v1/models
// does.
func unknownModel(w httpx.ResponseWriter, models []string, model string) {
	worker.WriteJSON(w, httpx.StatusBadRequest, map[string]any{
		"error": worker.APIError{Code: "unknown_model", Message: "model " + worker.QuoteClip(model) +
			" is not served by this Worker; use one of: " + strings.Join(models, ", ") + " (its MODELS setting)"},
		"models": models,
	})
}

// chatCompletion shapes a translated reply as an OpenAI chat.completion.
func (h handler) chatCompletion(res core.TranslateResult) chatCompletion {
	msg := chatMessage{Role: "assistant"}
	for _, tc := range res.ToolCalls {
		args := tc.Arguments
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		msg.ToolCalls = append(msg.ToolCalls, chatToolCall{ID: tc.ID, Type: "function", Function: chatToolFunction{Name: tc.Name, Arguments: args}})
	}
	if res.Text != "" || len(msg.ToolCalls) == 0 {
		text := res.Text
		msg.Content = &text
	}
	u := res.Usage
	if u.TotalTokens == 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	return chatCompletion{
		ID:      "chatcmpl-" + worker.RandomHex(12),
		Object:  "chat.completion",
		Created: h.opts.Now().Unix(),
		Model:   res.Model,
		Choices: []chatChoice{{Index: 0, Message: msg, FinishReason: worker.FinishReason(res.FinishReason, len(msg.ToolCalls) > 0)}},
		Usage:   chatUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens},
	}
}

// validateChat checks what Translate would otherwise reject or pass on
// broken; it returns the problem or "".
func validateChat(req chatRequest) string {
	switch {
	case req.N != nil && *req.N != 1:
		return `only "n": 1 is supported`
	case len(req.Messages) == 0:
		return `"messages" is required and must be a non-empty array`
	}
	for i, raw := range req.Messages {
		m, ok := decodeChatMessage(raw)
		if !ok {
			return fmt.Sprintf("messages[%d] must be an object with a string role", i)
		}
		if !chatRoles[m.Role] {
			return fmt.Sprintf("messages[%d] has role %q; use system, developer, user, assistant or tool", i, textx.Truncate(m.Role, 40))
		}
		for j, tc := range m.ToolCalls {
			if tc.Name == "" {
				return fmt.Sprintf("messages[%d].tool_calls[%d].function.name is required", i, j)
			}
			if a := strings.TrimSpace(tc.Arguments); a != "" && !jsonx.ValidString(a) {
				return fmt.Sprintf("messages[%d].tool_calls[%d].function.arguments is not JSON", i, j)
			}
		}
	}
	for i, raw := range req.Tools {
		if !validChatTool(raw) {
			return fmt.Sprintf(`tools[%d] must be {"type": "function", "function": {"name", "description"?, "parameters"?}}`, i)
		}
	}
	return ""
}

// rawList hands encoded messages to core as they are.
func rawList(raws []json.RawMessage) []any {
	out := make([]any, len(raws))
	for i, r := range raws {
		out[i] = r
	}
	return out
}
