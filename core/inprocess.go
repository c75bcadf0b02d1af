package core

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"strconv"
	"strings"

	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// GenerateRequest is what an in-process model receives each turn: the
// transcript and tools in OpenAI's chat-completions shape.
type GenerateRequest struct {
	Model    string           `json:"model"`
	Messages []map[string]any `json:"messages"`
	Tools    []map[string]any `json:"tools,omitempty"`
}

// GenerateResponse is an in-process model's reply.
type GenerateResponse struct {
	Text      string        `json:"text"`
	ToolCalls []ToolRequest `json:"toolCalls"`
	Usage     Usage         `json:"usage"`
}

// GenerateFunc is a model that runs in the same process (a local model, a
// scripted demo, a test double).
type GenerateFunc func(ctx context.Context, req GenerateRequest) (GenerateResponse, error)

// inProcessURL is the base URL reported for an in-process model.
const inProcessURL = "inprocess://model"

// CreateGenerateClient runs the same loop as CreateClient around generate
// instead of an HTTP provider. Its failures are final: they are not retried.
//
//	client := CreateGenerateClient(func(ctx context.Context, req GenerateRequest) (GenerateResponse, error) {
//		return GenerateResponse{Text: "hello"}, nil
//	}, ClientOptions{Model: "local"})
func CreateGenerateClient(generate GenerateFunc, opts ClientOptions) *Client {
	return CreateClient(generateOptions(generate, opts))
}

// generateOptions points opts at generate: an in-process transport, never
// retried.
func generateOptions(generate GenerateFunc, opts ClientOptions) ClientOptions {
	opts.Style = StyleOpenAI
	opts.BaseURL = inProcessURL
	opts.Retries = -1
	opts.Transport = TransportFunc(func(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
		in, err := decodeGenerateRequest(req.Body)
		if err != nil {
			return nil, fmt.Errorf("decode request: %w", err)
		}
		out, err := generate(ctx, in)
		if err != nil {
			return nil, err
		}
		return &HTTPResponse{Status: 200, Header: map[string]string{}, Body: io.NopCloser(strings.NewReader(generateReply(in.Model, out)))}, nil
	})
	return opts
}

// decodeGenerateRequest reads the chat-completions body core itself built.
func decodeGenerateRequest(body []byte) (GenerateRequest, error) {
	doc, err := jsonx.DecodeObject(body)
	if err != nil {
		return GenerateRequest{}, err
	}
	in := GenerateRequest{}
	in.Model, _ = doc["model"].(string)
	in.Messages = objects(doc["messages"])
	in.Tools = objects(doc["tools"])
	return in, nil
}

// objects keeps the JSON objects of a decoded array.
func objects(v any) []map[string]any {
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, e := range arr {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// generateReply encodes a GenerateResponse as a chat-completions reply.
func generateReply(model string, out GenerateResponse) string {
	for i := range out.ToolCalls {
		if out.ToolCalls[i].ID == "" {
			out.ToolCalls[i].ID = "call_" + strconv.Itoa(i) + "_" + newID("")
		}
		if strings.TrimSpace(out.ToolCalls[i].Arguments) == "" {
			out.ToolCalls[i].Arguments = "{}"
		}
	}
	msg := wire.OpenAI{}.AssistantMessage(LLMResponse{Text: out.Text, ToolCalls: out.ToolCalls})
	u := out.Usage
	if u.TotalTokens == 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	return fmt.Sprintf(`{"model":%s,"choices":[{"message":%s,"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`,
		mustJSON(model), msg, u.PromptTokens, u.CompletionTokens, u.TotalTokens)
}
