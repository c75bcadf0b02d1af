package worker

import (
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// TestRequestsShareTheToolkitAndClient: the requests of one configuration
// build the tool set and the client once (issue 35: each /v1/run built
// them again); a setting they were built from that changes builds them
// again, and the next request runs with it.
func TestRequestsShareTheToolkitAndClient(t *testing.T) {
	hs := newHarness(t, nil)
	builds := 0
	hs.h.opts.Tools = func(env ToolEnv) []core.Tool {
		builds++
		return DefaultTools(env)
	}
	run := func(want string) {
		t.Helper()
		code, body := hs.Post("/v1/run", map[string]any{"prompt": "add 2 and 3"})
		if code != 200 || body["text"] != "done: 5" {
			t.Fatalf("POST /v1/run = %d %v", code, body)
		}
		if reqs := hs.llm.Requests(); !strings.Contains(reqs[len(reqs)-1], want) {
			t.Fatalf("the last model request does not carry %q: %s", want, reqs[len(reqs)-1])
		}
	}
	hs.env["SYSTEM_PROMPT"] = "be brief"
	run(`"be brief"`)
	run(`"be brief"`)
	tk1, err := hs.h.NewToolkit(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := hs.h.CheckConfig()
	if c1, c2 := hs.h.AgentClient(cfg, tk1, cfg.Timeout), hs.h.AgentClient(cfg, tk1, cfg.Timeout); c1 != c2 {
		t.Error("two requests of one configuration made two clients")
	}
	if builds != 1 {
		t.Errorf("the tool set was built %d times for one configuration; want 1", builds)
	}

	// A setting the client is made from: a new client, the same toolkit.
	hs.env["SYSTEM_PROMPT"] = "be thorough"
	run(`"be thorough"`)
	if builds != 1 {
		t.Errorf("SYSTEM_PROMPT rebuilt the tool set (%d builds)", builds)
	}

	// A setting the toolkit is made from: a new toolkit, with the new tool.
	hs.env[HTTPToolsSetting] = `[{"name": "ping", "description": "Ping.", "url": "https://api.example/ping"}]`
	run(`"ping"`)
	if builds != 2 {
		t.Errorf("a new HTTP_TOOLS made %d builds; want 2", builds)
	}
	tk2, err := hs.h.NewToolkit(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tk2.Get("ping"); !ok {
		t.Error("the toolkit of the old HTTP_TOOLS served the new one")
	}
}

// TestSharedToolkitsShareNoGrants: requests that share a toolkit's tools
// each get an approval policy of their own, so that a grant given in one
// ("allow for this conversation") is never another's.
func TestSharedToolkitsShareNoGrants(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env[ApprovalRulesSetting] = `[{"tool": "refund", "decision": "ask"}]` })
	a, errA := hs.h.NewToolkit(t.Context(), "")
	b, errB := hs.h.NewToolkit(t.Context(), "")
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a.Approvals() == b.Approvals() {
		t.Fatal("two requests share one approval policy")
	}
	if len(a.Approvals().Rules) != 1 || len(b.Approvals().Rules) != 1 {
		t.Errorf("rules %v, %v; want APPROVAL_RULES' one each", a.Approvals().Rules, b.Approvals().Rules)
	}
	ta, _ := a.Get("refund")
	tb, _ := b.Get("refund")
	if ta.Name == "" || tb.Name == "" {
		t.Error("a shared toolkit lost its tools")
	}
}

// TestPerRequestToolkits: a toolkit that holds something of its request's
// own (an MCP server's session, a workspace's files) is built for each
// request, never shared.
func TestPerRequestToolkits(t *testing.T) {
	tests := []struct {
		name string
		edit func(hs *harness)
	}{
		{"MCP_CONFIG", func(hs *harness) {
			hs.env["MCP_CONFIG"] = `{"mcpServers": {"down": {"url": "http://127.0.0.1:1/mcp"}}}`
		}},
		{"A2A_AGENTS", func(hs *harness) {
			hs.env["A2A_AGENTS"] = `{"billing": {"card": "http://127.0.0.1:1/.well-known/agent-card.json"}}`
		}},
		{"file tools", func(hs *harness) {
			store := NewMemoryBlobs()
			hs.h.opts.Files = func() BlobStore { return store }
			hs.env["BUILTINS"] = "read"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, nil)
			tt.edit(hs)
			a, errA := hs.h.NewToolkit(t.Context(), "")
			b, errB := hs.h.NewToolkit(t.Context(), "")
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			defer a.Close()
			defer b.Close()
			if a == b {
				t.Error("two requests shared one toolkit")
			}
		})
	}
}
