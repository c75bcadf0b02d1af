package gateway

import (
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

// chatChunk is an OpenAI chat.completion.chunk.
type chatChunk struct {
	ID      string            `json:"id"`
	Object  string            `json:"object"`
	Created int64             `json:"created"`
	Model   string            `json:"model"`
	Choices []chatChunkChoice `json:"choices"`
	Usage   *chatUsage        `json:"usage,omitempty"`
}

type chatChunkChoice struct {
	Index        int       `json:"index"`
	Delta        chatDelta `json:"delta"`
	FinishReason *string   `json:"finish_reason"`
	Logprobs     any       `json:"logprobs"`
}

type chatDelta struct {
	Role      string              `json:"role,omitempty"`
	Content   *string             `json:"content,omitempty"`
	ToolCalls []chatToolCallDelta `json:"tool_calls,omitempty"`
}

type chatToolCallDelta struct {
	Index    int                   `json:"index"`
	ID       string                `json:"id,omitempty"`
	Type     string                `json:"type,omitempty"`
	Function chatToolFunctionDelta `json:"function"`
}

type chatToolFunctionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// chatStream writes one streamed chat completion as OpenAI's server-sent
// chunks: "data: <chunk>" per event and "data: [DONE]" at the end. It
// writes through the sseWriter /v1/run streams with, one Write and a flush
// per chunk, so a chunk leaves as soon as the model's delta arrived.
type chatStream struct {
	sse     *worker.SSEWriter
	base    chatChunk
	started bool
	seen    map[int]bool // tool calls whose first delta was written
}

// chunk writes one chunk with the given delta and finish reason.
func (s *chatStream) chunk(delta chatDelta, finish *string) error {
	if !s.started {
		s.started = true
		delta.Role = "assistant"
	}
	c := s.base
	c.Choices = []chatChunkChoice{{Delta: delta, FinishReason: finish}}
	return s.data(c)
}

func (s *chatStream) data(v any) error {
	b, err := worker.MarshalJSON(v)
	if err != nil {
		return err
	}
	return s.sse.Send(append(append([]byte("data: "), b...), "\n\n"...))
}

// toolDelta writes a piece of tool call i; its first piece carries the id,
// the type and the name, as OpenAI's do.
func (s *chatStream) toolDelta(i int, id, name, args string) error {
	d := chatToolCallDelta{Index: i, Function: chatToolFunctionDelta{Name: name, Arguments: args}}
	if !s.seen[i] {
		s.seen[i] = true
		d.ID, d.Type = id, "function"
	}
	return s.chunk(chatDelta{ToolCalls: []chatToolCallDelta{d}}, nil)
}

// streamChatCompletion answers a "stream": true chat completion. Until the
// model sends its first delta nothing is written, so a provider that fails
// at once gets the same JSON error as without streaming; after that an
// error is one chunk {"error": {...}} and the stream ends without [DONE].
func (h handler) streamChatCompletion(w httpx.ResponseWriter, r *httpx.Request, cfg worker.Config, client *core.Client, req core.TranslateRequest, includeUsage bool) {
	s := &chatStream{
		sse:  worker.NewSSEWriter(w),
		seen: map[int]bool{},
		base: chatChunk{ID: "chatcmpl-" + worker.RandomHex(12), Object: "chat.completion.chunk", Created: h.opts.Now().Unix(), Model: firstSet(req.Model, cfg.Model)},
	}
	res, err := client.TranslateStream(r.Context(), req, func(e core.StreamEvent) {
		switch e.Type {
		case core.EventText:
			text := e.Delta
			s.chunk(chatDelta{Content: &text}, nil)
		case core.EventToolCallDelta:
			s.toolDelta(e.Index, e.ID, e.Name, e.ArgsJSON)
		}
	})
	if err != nil {
		h.CountRun("chat_completions", "error")
		status, body := h.RunErrorBody(cfg, core.RunResult{}, err)
		if !s.started {
			worker.WriteJSON(w, status, body)
			return
		}
		s.data(map[string]any{"error": map[string]any{"message": body.Error.Message, "type": "server_error", "code": body.Error.Code}})
		return
	}
	h.CountRun("chat_completions", core.StatusDone)
	// A provider that answered the stream request in one piece streamed its
	// text as one delta but no tool-call deltas: send those calls whole.
	for i, tc := range res.ToolCalls {
		if !s.seen[i] {
			args := tc.Arguments
			if strings.TrimSpace(args) == "" {
				args = "{}"
			}
			s.toolDelta(i, tc.ID, tc.Name, args)
		}
	}
	if res.Model != "" {
		s.base.Model = res.Model
	}
	finish := worker.FinishReason(res.FinishReason, len(res.ToolCalls) > 0)
	s.chunk(chatDelta{}, &finish)
	if includeUsage {
		u := res.Usage
		if u.TotalTokens == 0 {
			u.TotalTokens = u.PromptTokens + u.CompletionTokens
		}
		c := s.base
		c.Choices = []chatChunkChoice{}
		c.Usage = &chatUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
		s.data(c)
	}
	s.sse.Send([]byte("data: [DONE]\n\n"))
}

// serveModels is GET /v1/models: the models this Worker serves
// (worker.Models: MODELS, else LLM_MODEL alone), in OpenAI's list shape
// (clients ask for it before their first request).
func (h handler) serveModels(w httpx.ResponseWriter, r *httpx.Request) {
	cfg, ok := h.RequestConfig(w)
	if !ok {
		return
	}
	models, _ := worker.Models(h.opts.Getenv, cfg.Model) // checked by RequestConfig
	data := make([]any, len(models))
	for i, m := range models {
		data[i] = map[string]any{"id": m, "object": "model", "created": 0, "owned_by": "toolnexus"}
	}
	worker.WriteJSON(w, httpx.StatusOK, map[string]any{"object": "list", "data": data})
}

func firstSet(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
