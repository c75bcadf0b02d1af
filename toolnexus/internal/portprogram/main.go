// Command portprogram is a program written for the Go port's API
// (github.com/muthuishere/toolnexus/golang at 6cb8bd19), compiled and run
// against the port there, and here with only its two import paths changed:
// a client with hooks and a relay tool the host runs, an agent team whose
// approval halts the tree and resumes through Runtime.Resume, and a persona
// agent whose memory tool writes to its home directory. It scripts its own
// model, so it needs no network and no key; it exits non-zero on the first
// wrong result.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	toolnexus "github.com/toolnexus/wasm/toolnexus"
	"github.com/toolnexus/wasm/toolnexus/agents"
)

// reply builds one OpenAI-style chat completion: text, or one tool call.
func reply(text, tool, args string) []byte {
	msg := map[string]any{"role": "assistant", "content": text}
	if tool != "" {
		msg["content"] = nil
		msg["tool_calls"] = []any{map[string]any{"id": "call_" + tool, "type": "function",
			"function": map[string]any{"name": tool, "arguments": args}}}
	}
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": msg}},
		"usage": map[string]any{"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}})
	return b
}

// script answers from the transcript: the model asks for a tool once, then
// reports what the tool said.
func script(body []byte) []byte {
	var req struct {
		Messages []map[string]any `json:"messages"`
	}
	_ = json.Unmarshal(body, &req)
	last := req.Messages[len(req.Messages)-1]
	content, _ := last["content"].(string)
	system := ""
	if s, ok := req.Messages[0]["content"].(string); ok && req.Messages[0]["role"] == "system" {
		system = s
	}
	if last["role"] == "tool" {
		return reply("tool said: "+content, "", "")
	}
	switch {
	case strings.Contains(system, "You are support"):
		return reply("", "task", `{"agent":"billing","prompt":"refund order 42"}`)
	case strings.Contains(system, "You are billing"):
		return reply("", "refund", `{"order":"42"}`)
	case strings.Contains(content, "remember"):
		return reply("", "memory", `{"action":"add","text":"Prefers dark roast"}`)
	case strings.Contains(content, "refund"):
		return reply("", "refund", `{"order":"42"}`)
	}
	return reply("hello", "", "")
}

// roundTripper is the agents runtime's transport: the scripted model.
type roundTripper struct{}

func (roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	body, _ := io.ReadAll(r.Body)
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(script(body))), Request: r}, nil
}

func check(ok bool, format string, a ...any) {
	if !ok {
		log.Fatalf("FAIL: "+format, a...)
	}
}

func main() {
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(script(body))
	}))
	defer srv.Close()

	// 1. A client with hooks and a relay tool: the host runs the tool, the run goes on.
	var llmCalls, toolCalls atomic.Int32
	hooks := &toolnexus.Hooks{
		BeforeLLM: func(ctx context.Context, ev toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error) {
			llmCalls.Add(1)
			return nil, nil
		},
		AfterTool: func(ctx context.Context, ev toolnexus.AfterToolEvent) (*toolnexus.ToolOverride, error) {
			toolCalls.Add(1)
			return nil, nil
		},
	}
	tk, err := toolnexus.CreateToolkit(ctx, toolnexus.Options{Builtins: false,
		ExtraTools: []toolnexus.Tool{toolnexus.RelayTool("refund", "Refund an order", nil)}})
	check(err == nil, "toolkit: %v", err)
	defer tk.Close()
	client := toolnexus.CreateClient(toolnexus.ClientOptions{BaseURL: srv.URL, Style: toolnexus.StyleOpenAI,
		Model: "scripted", APIKey: "k", Hooks: hooks})
	halted, err := client.Run(ctx, "refund order 42", tk)
	check(err == nil && halted.Status == "pending" && halted.Pending != nil, "relay halt: %+v %v", halted, err)
	calls := toolnexus.RelayCallsOf(halted.Pending)
	check(len(calls) == 1 && calls[0].Name == "refund", "relay calls: %+v", calls)
	done, err := client.RunWithAnswer(ctx, tk, halted.Messages, *halted.Pending,
		toolnexus.RelayAnswer(halted.Pending.ID, []toolnexus.RelayResult{{ID: calls[0].ID, Output: "refunded by the host"}}))
	check(err == nil && done.Status == "done" && strings.Contains(done.Text, "refunded by the host"), "relay answer: %+v %v", done, err)
	check(llmCalls.Load() == 2, "BeforeLLM ran %d times, want 2", llmCalls.Load())
	fmt.Println("client:", done.Text)

	// 2. An agent team: billing's approval halts the tree at the root; Resume answers it.
	refund := toolnexus.Tool{Name: "refund", Description: "Refund an order", Source: toolnexus.SourceCustom,
		InputSchema: toolnexus.JSONSchema{"type": "object", "properties": map[string]any{"order": map[string]any{"type": "string"}}},
		Execute: func(args map[string]any, tc *toolnexus.ToolContext) (toolnexus.ToolResult, error) {
			if tc == nil || tc.Answer == nil {
				return toolnexus.Pending(toolnexus.Request{Kind: "approval", Prompt: "refund?"}), nil
			}
			return toolnexus.ToolResult{Output: fmt.Sprintf("refunded order %v", args["order"])}, nil
		}}
	billing := agents.New("billing", agents.Spec{Does: "Refunds orders", Soul: "You are billing.", Tools: []toolnexus.Tool{refund}})
	support := agents.New("support", agents.Spec{Does: "Answers customers", Soul: "You are support.", Team: []*agents.Agent{billing}})
	rt := agents.NewRuntime(agents.Options{Transport: roundTripper{}, Registry: support.Registry()})
	h, err := rt.Spawn(rt.Root, "support", nil)
	check(err == nil, "spawn: %v", err)
	rt.Wake(h, "review order 42")
	res := rt.Wait(h, 0)
	check(res.Status == "pending" && res.Pending != nil, "team halt: %+v", res)
	path, _ := res.Pending.Data["path"].([]string)
	check(len(path) > 0, "no path in %+v", res.Pending.Data)
	check(rt.Resume(toolnexus.Answer{ID: res.Pending.ID, Ok: true}) == nil, "resume failed")
	final := rt.Wait(h, 0)
	check(strings.Contains(final.Text, "refunded order 42"), "team result: %+v", final)
	check(len(rt.Trace()) > 0, "no trace")
	rt.Close(rt.Root, nil)
	fmt.Println("team:", final.Text)

	// 3. A persona agent: its memory tool writes to its home directory.
	home, err := os.MkdirTemp("", "persona-")
	check(err == nil, "temp: %v", err)
	defer os.RemoveAll(home)
	check(os.WriteFile(filepath.Join(home, "SOUL.md"), []byte("You are Ava."), 0o644) == nil, "write soul")
	soul, found := agents.ComposeSoul(home)
	check(strings.Contains(soul, "You are Ava.") && len(found) == 1, "soul: %q %v", soul, found)
	ava := agents.FromDir(home, agents.FromDirOptions{Name: "ava"})
	out, _ := ava.Run(agents.Options{Transport: roundTripper{}}, "please remember my coffee")
	mem, _ := os.ReadFile(filepath.Join(home, "MEMORY.md"))
	check(strings.Contains(string(mem), "dark roast"), "memory file: %q (run: %+v)", mem, out)
	fmt.Println("persona:", out.Text)
	fmt.Println("ok")
}
