package core

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// The request body of a turn is built from parts cached across turns and
// runs (the toolkit's encoded tools per style, the client's request params
// with tool_choice); these tests change each part between turns and check
// that the next request follows.

func sentToolNames(style Style, r recorded) []string {
	path := "tools.#.function.name"
	if style == StyleAnthropic {
		path = "tools.#.name"
	}
	var out []string
	for _, n := range r.Body.Get(path).Array() {
		out = append(out, n.String())
	}
	return out
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestToolAddedMidRunIsSent: a tool registered while a run is going (as an
// MCP server's list_changed or a page adding a tool does) is in the next
// request, in each wire style, and one toolkit serves both styles.
func TestToolAddedMidRunIsSent(t *testing.T) {
	var c counter
	tk := mustToolkit(t, c.tool("t"))
	added := false
	if err := tk.Register(NativeTool("grow", "adds a tool", nil, func(context.Context, map[string]any) (string, error) {
		if !added {
			added = true
			if err := tk.Register(c.tool("u")); err != nil {
				return "", err
			}
		}
		return "grown", nil
	})); err != nil {
		t.Fatal(err)
	}
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		t.Run(string(style), func(t *testing.T) {
			m := newScripted(t, style,
				turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}},
				turn{Calls: []ToolRequest{call("c2", "grow", `{}`)}},
				turn{Text: "done"})
			if _, err := m.client(ClientOptions{}).Run(context.Background(), "go", tk); err != nil {
				t.Fatal(err)
			}
			sent := m.sent()
			if len(sent) != 3 {
				t.Fatalf("%d requests, want 3", len(sent))
			}
			before := []string{"t", "grow"}
			if style == StyleAnthropic { // the toolkit grew in the OpenAI run
				before = []string{"t", "grow", "u"}
			}
			for i, want := range [][]string{before, before, {"t", "grow", "u"}} {
				if got := sentToolNames(style, sent[i]); !sameStrings(got, want) {
					t.Errorf("request %d tools = %v, want %v", i, got, want)
				}
			}
			if style == StyleAnthropic && sent[0].Body.Get("tools.0.function").Exists() {
				t.Errorf("Anthropic request carries OpenAI tool declarations: %s", sent[0].Body.Get("tools").Raw)
			}
		})
	}
}

// TestRequestParamsFollowHooksAndOptions: tool_choice "auto" goes with tools
// only (OpenAI's), RequestParams win over it, and a BeforeLLM hook that changes the
// model or drops the tools changes the next request accordingly.
func TestRequestParamsFollowHooksAndOptions(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		t.Run(string(style), func(t *testing.T) {
			var c counter
			hooks := &Hooks{BeforeLLM: func(_ context.Context, lc *LLMCall) (*LLMResponse, error) {
				if lc.Turn == 1 {
					lc.Model = "other-model"
					lc.Tools = []byte("[]")
				}
				return nil, nil
			}}
			m := newScripted(t, style,
				turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}},
				turn{Calls: []ToolRequest{call("c2", "t", `{"order":"2"}`)}},
				turn{Text: "done"})
			client := m.client(ClientOptions{Hooks: hooks, RequestParams: map[string]any{"temperature": 0.5}})
			if _, err := client.Run(context.Background(), "go", mustToolkit(t, c.tool("t"))); err != nil {
				t.Fatal(err)
			}
			sent := m.sent()
			if len(sent) != 3 {
				t.Fatalf("%d requests, want 3", len(sent))
			}
			for i, r := range sent {
				// The hook's model is for its call; its tool list for the rest of the run.
				wantModel, wantTools := "test-model", i == 0
				if i == 1 {
					wantModel = "other-model"
				}
				if got := r.Body.Get("model").String(); got != wantModel {
					t.Errorf("request %d model = %q, want %q", i, got, wantModel)
				}
				// Anthropic's default is "auto": no tool_choice is sent for it.
				wantChoice := wantTools && style == StyleOpenAI
				if r.Body.Get("tools").Exists() != wantTools || r.Body.Get("tool_choice").Exists() != wantChoice {
					t.Errorf("request %d: tools (want %v) and tool_choice (want %v): %s", i, wantTools, wantChoice, r.Body.Raw)
				}
				if r.Body.Get("temperature").Float() != 0.5 {
					t.Errorf("request %d lost RequestParams: %s", i, r.Body.Raw)
				}
			}
			if style == StyleOpenAI && sent[0].Body.Get("tool_choice").String() != "auto" {
				t.Errorf("tool_choice = %s", sent[0].Body.Get("tool_choice").Raw)
			}

			// RequestParams' own tool_choice is the only one sent.
			m2 := newScripted(t, style, turn{Text: "done"}, turn{Text: "done"})
			client2 := m2.client(ClientOptions{RequestParams: map[string]any{"tool_choice": "required"}})
			for range 2 {
				if _, err := client2.Run(context.Background(), "go", mustToolkit(t, c.tool("t"))); err != nil {
					t.Fatal(err)
				}
			}
			for i, r := range m2.sent() {
				if got := r.Body.Get("tool_choice").Raw; got != `"required"` {
					t.Errorf("run %d tool_choice = %s, want the caller's", i, got)
				}
			}
		})
	}
}

// TestCheckedHistory: history the JS bridge has checked (jsonx.Checked) is
// sent as it is without validating it again, but a checked element that is
// not an object is still refused, and a refused history comes back in the
// result encodable as JSON.
func TestCheckedHistory(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Text: "done"})
	client := m.client(ClientOptions{})
	history := []any{jsonx.Checked(`{"role":"user","content":"earlier"}`), json.RawMessage(`{"role":"assistant","content":"ok"}`)}
	res, err := client.RunWithHistory(context.Background(), "now", mustToolkit(t), history)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.sent()[0].Body.Get("messages.0.content").String(); got != "earlier" || len(res.Messages) != 4 {
		t.Fatalf("first message %q, %d messages", got, len(res.Messages))
	}
	bad := []any{jsonx.Checked(`["not","an","object"]`)}
	res, err = client.RunWithHistory(context.Background(), "now", mustToolkit(t), bad)
	if err == nil {
		t.Fatal("a checked history element that is not an object was accepted")
	}
	if b, err := json.Marshal(res.Messages); err != nil || string(b) != `[["not","an","object"]]` {
		t.Fatalf("refused history encodes as %s (%v)", b, err)
	}
}

// keepingTransport keeps every request body it is given, as it is (no
// copy), and answers from the script; copies says CopiesRequestBody.
type keepingTransport struct {
	next   Transport
	bodies [][]byte
}

func (k *keepingTransport) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	k.bodies = append(k.bodies, req.Body)
	return k.next.Do(ctx, req)
}

type copyingTransport struct{ keepingTransport }

func (c *copyingTransport) CopiesRequestBody() {}

// TestRequestBodyBuffer: a run reuses its request buffer only for a
// Transport that copies bodies and with no BodyTransform (which may keep
// the body); each request is whole either way.
func TestRequestBodyBuffer(t *testing.T) {
	// A long history, as where the reuse matters: a turn adds little to it,
	// so a grown buffer holds the next request.
	history := []any{json.RawMessage(`{"role":"user","content":"` + strings.Repeat("earlier ", 1000) + `"}`), json.RawMessage(`{"role":"assistant","content":"ok"}`)}
	for _, tt := range []struct {
		name      string
		copies    bool
		transform bool
	}{{"keeping", false, false}, {"copying", true, false}, {"copying with BodyTransform", true, true}} {
		t.Run(tt.name, func(t *testing.T) {
			var c counter
			m := newScripted(t, StyleOpenAI,
				turn{Calls: []ToolRequest{call("c1", "t", `{"order":"1"}`)}},
				turn{Calls: []ToolRequest{call("c2", "t", `{"order":"2"}`)}},
				turn{Text: "done"})
			var k *keepingTransport
			var tr Transport
			if tt.copies {
				ct := &copyingTransport{keepingTransport{next: m}}
				k, tr = &ct.keepingTransport, ct
			} else {
				k = &keepingTransport{next: m}
				tr = k
			}
			opts := ClientOptions{Style: StyleOpenAI, BaseURL: "https://model.test/v1", Model: "test-model", Transport: tr}
			var kept [][]byte
			if tt.transform {
				opts.BodyTransform = func(b []byte) ([]byte, error) { kept = append(kept, b); return b, nil }
			}
			if _, err := CreateClient(opts).RunWithHistory(context.Background(), "go", mustToolkit(t, c.tool("t")), history); err != nil {
				t.Fatal(err)
			}
			sent := m.sent() // parsed as each request came in
			if len(sent) != 3 {
				t.Fatalf("%d requests", len(sent))
			}
			for i, r := range sent {
				if n := len(r.Body.Get("messages").Array()); n != 3+2*i {
					t.Errorf("request %d has %d messages, want %d", i, n, 3+2*i)
				}
			}
			// What a transport or BodyTransform kept is intact unless the
			// transport said it copies.
			same := func(a, b []byte) bool { return len(a) > 0 && len(b) > 0 && &a[:1][0] == &b[:1][0] }
			shared := false // a buffer outgrown is replaced: some pair shares one
			for i := range k.bodies {
				for j := i + 1; j < len(k.bodies); j++ {
					shared = shared || same(k.bodies[i], k.bodies[j])
				}
			}
			if shared != (tt.copies && !tt.transform) {
				t.Errorf("requests share a buffer: %v", shared)
			}
			if !tt.copies || tt.transform {
				for i, b := range k.bodies {
					if string(b) != sent[i].Body.Raw {
						t.Errorf("request %d changed after it was sent", i)
					}
				}
				for i, b := range kept {
					if string(b) != sent[i].Body.Raw {
						t.Errorf("BodyTransform's request %d changed after it was sent", i)
					}
				}
			}
		})
	}
}
