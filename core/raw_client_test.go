package core

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A raw client runs the same loop with core's raw forms and refuses, on
// every Run, the options only the port layer applies.
func TestRawClientRefusesPortOptions(t *testing.T) {
	cases := []struct {
		name string
		opts ClientOptions
		want string
	}{
		{"hooks", ClientOptions{Hooks: &Hooks{}}, "ClientOptions.Hooks"},
		{"onError", ClientOptions{OnError: func(ErrorInfo) Tier { return TierFail }}, "ClientOptions.OnError"},
		{"bodyTransform", ClientOptions{BodyTransform: func(m map[string]any) map[string]any { return m }}, "ClientOptions.BodyTransform"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newScripted(t, StyleOpenAI, turn{text: "hi"})
			tc.opts.BaseURL, tc.opts.Model, tc.opts.Transport = "https://model.test/v1", "m", m
			_, err := CreateRawClient(tc.opts).Run(context.Background(), "x", mustToolkit(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "CreateClient") {
				t.Fatalf("err = %v, want one naming %s and CreateClient", err, tc.want)
			}
			if len(m.sent()) != 0 {
				t.Fatalf("a refused client sent %d requests", len(m.sent()))
			}
		})
	}
}

func TestRawClientRunsWithRawMessages(t *testing.T) {
	c := &counter{}
	m := newScripted(t, StyleOpenAI, turn{calls: []ToolRequest{call("c1", "echo", `{"x":1}`)}}, turn{text: "done"})
	// RawMessages unset: a raw client keeps them encoded all the same.
	client := CreateRawClient(ClientOptions{BaseURL: "https://model.test/v1", Model: "m", Transport: m})
	res, err := client.Run(context.Background(), "go", mustToolkit(t, c.tool("echo")))
	if err != nil || res.Text != "done" || c.count() != 1 {
		t.Fatalf("res %+v err %v, tool ran %d times", res, err, c.count())
	}
	if len(res.Messages) != 4 {
		t.Fatalf("messages = %d, want 4", len(res.Messages))
	}
	for i, msg := range res.Messages {
		if _, raw := msg.(json.RawMessage); !raw {
			t.Fatalf("messages[%d] is %T, want json.RawMessage", i, msg)
		}
	}
	// The port's client decodes them.
	m2 := newScripted(t, StyleOpenAI, turn{text: "done"})
	res, err = m2.client(ClientOptions{}).Run(context.Background(), "go", mustToolkit(t))
	if _, isMap := res.Messages[0].(map[string]any); err != nil || !isMap {
		t.Fatalf("CreateClient: messages[0] is %T (err %v), want a map", res.Messages[0], err)
	}
}

func TestRawGenerateClientTranslate(t *testing.T) {
	gen := func(ctx context.Context, req GenerateRequest) (GenerateResponse, error) {
		return GenerateResponse{Text: "ok"}, nil
	}
	client := CreateRawGenerateClient(gen, ClientOptions{Model: "local"})
	msgs := []any{json.RawMessage(`{"role":"user","content":"hi"}`)}
	res, err := client.Translate(context.Background(), TranslateRequest{Messages: msgs, System: "be brief"})
	if err != nil || res.Text != "ok" || res.Raw != nil {
		t.Fatalf("res %+v err %v: want the reply, without Raw", res, err)
	}
	for _, req := range []TranslateRequest{
		{Messages: msgs, ToolChoice: "required"},
		{Messages: msgs, Toolkit: mustToolkit(t)},
	} {
		if _, err := client.Translate(context.Background(), req); err == nil || !strings.Contains(err.Error(), "CreateClient") {
			t.Fatalf("Translate(%+v) err = %v, want one naming CreateClient", req, err)
		}
	}
	// CreateGenerateClient applies ToolChoice.
	var sentTools int
	full := CreateGenerateClient(func(ctx context.Context, req GenerateRequest) (GenerateResponse, error) {
		sentTools = len(req.Tools)
		return GenerateResponse{Text: "ok"}, nil
	}, ClientOptions{Model: "local"})
	c := &counter{}
	if _, err := full.Translate(context.Background(), TranslateRequest{Messages: msgs, ToolChoice: "required", Toolkit: mustToolkit(t, c.tool("echo"))}); err != nil || sentTools != 1 {
		t.Fatalf("CreateGenerateClient: err %v, tools sent %d (want 1)", err, sentTools)
	}
}

// A raw toolkit takes core's own option forms and names CreateToolkit for
// the Go port's.
func TestRawToolkitRefusesPortForms(t *testing.T) {
	c := &counter{}
	tk, err := CreateRawToolkit(context.Background(), Options{Builtins: false, ExtraTools: []Tool{c.tool("echo")}})
	if err != nil || len(tk.Tools()) != 1 {
		t.Fatalf("tk %v err %v", tk, err)
	}
	cases := map[string]Options{
		"Options.McpConfig": {McpConfig: map[string]any{"mcpServers": map[string]any{}}},
		"Options.SkillsDir": {SkillsDir: []string{"skills"}},
		"Options.Skills":    {Skills: []SkillDef{{Name: "a"}}},
		"Options.Builtins":  {Builtins: map[string]any{"enabled": false}},
	}
	for want, opts := range cases {
		_, err := CreateRawToolkit(context.Background(), opts)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "CreateToolkit") {
			t.Errorf("%s: err = %v, want one naming it and CreateToolkit", want, err)
		}
	}
	// CreateToolkit reads the port's config object.
	if _, err := CreateToolkit(context.Background(), Options{Builtins: map[string]any{"enabled": false}}); err != nil {
		t.Fatalf("CreateToolkit: %v", err)
	}
}
