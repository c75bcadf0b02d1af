package core

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// TestMessagesAreEncoded: RunResult.Messages holds each message as the
// json.RawMessage the loop sent.
func TestMessagesAreEncoded(t *testing.T) {
	c := &counter{}
	m := newScripted(t, StyleOpenAI, turn{Calls: []ToolRequest{call("c1", "echo", `{"x":1}`)}}, turn{Text: "done"})
	res, err := m.client(ClientOptions{}).Run(context.Background(), "go", mustToolkit(t, c.tool("echo")))
	if err != nil || res.Text != "done" || c.count() != 1 || len(res.Messages) != 4 {
		t.Fatalf("res %+v err %v, tool ran %d times", res, err, c.count())
	}
	for i, msg := range res.Messages {
		if _, raw := msg.(json.RawMessage); !raw {
			t.Fatalf("messages[%d] is %T, want json.RawMessage", i, msg)
		}
	}
}

// TestTranslateToolChoiceAndToolkit: a Translate declares a toolkit's
// tools and sends ToolChoice; Raw is the reply's bytes.
func TestTranslateToolChoiceAndToolkit(t *testing.T) {
	var sentTools int
	client := CreateGenerateClient(func(ctx context.Context, req GenerateRequest) (GenerateResponse, error) {
		sentTools = len(req.Tools)
		return GenerateResponse{Text: "ok"}, nil
	}, ClientOptions{Model: "local"})
	c := &counter{}
	msgs := []any{json.RawMessage(`{"role":"user","content":"hi"}`)}
	res, err := client.Translate(context.Background(), TranslateRequest{Messages: msgs, ToolChoice: "required", Toolkit: mustToolkit(t, c.tool("echo"))})
	if err != nil || sentTools != 1 || res.Text != "ok" || len(res.Raw) == 0 {
		t.Fatalf("res %+v err %v, tools sent %d (want 1)", res, err, sentTools)
	}
}

// TestProviderBodyDropsAuthReplies: a ProviderError keeps no 401/403 body
// and never the API key; RedactBody replaces the default.
func TestProviderBodyDropsAuthReplies(t *testing.T) {
	tests := []struct {
		status         int
		body, wantBody string
	}{
		{401, `{"error":"no"}`, ""},
		{429, ` {"org_id":"o-1","key":"sk-secret-abcdef"} `, `{"org_id":"o-1","key":"[redacted]"}`},
	}
	for _, tt := range tests {
		m := newScripted(t, StyleOpenAI, turn{Status: tt.status, Raw: tt.body})
		opts := ClientOptions{BaseURL: "https://model.test/v1", Style: StyleOpenAI, Model: "m", APIKey: "sk-secret-abcdef", Retries: -1, Transport: m}
		_, err := CreateClient(opts).Run(context.Background(), "hi", mustToolkit(t))
		pe, ok := errors.AsType[*ProviderError](err)
		if !ok || pe.Body != tt.wantBody {
			t.Errorf("status %d: err = %v, want Body %q", tt.status, err, tt.wantBody)
		}
	}
	m := newScripted(t, StyleOpenAI, turn{Status: 429, Raw: "busy"})
	opts := ClientOptions{BaseURL: "https://model.test/v1", Model: "m", Retries: -1, Transport: m,
		RedactBody: func(status int, body string) string { return "<" + body + ">" }}
	_, err := CreateClient(opts).Run(context.Background(), "hi", mustToolkit(t))
	if pe, ok := errors.AsType[*ProviderError](err); !ok || pe.Body != "<busy>" {
		t.Fatalf("RedactBody: err = %v", err)
	}
}
