package worker

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core/agents"
)

// A broken AGENTS names every mistake at once, as the rest of the
// configuration does (issue 26: /readyz listed "biling" but not "refnd").
func TestParseAgentsReportsEveryProblem(t *testing.T) {
	known := func(name string) bool { return name == "refund" }
	_, err := ParseAgents(`[{"name": "support", "team": ["biling"]},
		{"name": "billing", "tools": ["refnd"]},
		{"name": "billing"}, {"name": "audit", "soul": 1}, {"name": "ops", "team": ["audit"]}]`, known)
	var got []string
	for _, p := range problemList(err) {
		got = append(got, p.Setting+" "+p.Problem)
	}
	want := []string{
		`AGENTS declares the agent billing twice`,
		`AGENTS agent 3: "soul" is not a known field`,
		`AGENTS agent support: team member "biling" is not declared`,
		`AGENTS agent billing: tool "refnd" is not offered by this Worker (GET /v1/tools lists them)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseAgents(t *testing.T) {
	known := func(name string) bool { return name == "refund" || name == "add" }
	cases := []struct {
		name, text, wantErr string
	}{
		{"unset", "", ""},
		{"a team", testAgents, ""},
		{"not JSON", `[{"name": "support",]`, "is not valid JSON"},
		{"an object", `{"support": {}}`, "must be a JSON array"},
		{"empty", `[]`, "declares no agent"},
		{"not an object", `["support"]`, "agent 0: must be an object"},
		{"unknown field", `[{"name": "a", "soul": "x"}]`, `agent 0: "soul" is not a known field`},
		{"no name", `[{"does": "x"}]`, `agent 0: "name" must be`},
		{"bad name", `[{"name": "a b"}]`, `agent 0: "name" must be`},
		{"twice", `[{"name": "a"}, {"name": "a"}]`, "declares the agent a twice"},
		{"undeclared member", `[{"name": "a", "team": ["b"]}]`, `agent a: team member "b" is not declared`},
		{"unknown tool", `[{"name": "a", "tools": ["wire_money"]}]`, `agent a: tool "wire_money" is not offered`},
		{"task listed", `[{"name": "a", "tools": ["task"]}]`, `agent a: "task" is not a tool to list`},
		{"tools not a list", `[{"name": "a", "tools": "refund"}]`, `"tools" must be an array of names`},
		{"empty tool name", `[{"name": "a", "tools": [""]}]`, `"tools" must hold non-empty strings only`},
		{"zero budget", `[{"name": "a", "budget": {"maxTurns": 0}}]`, `"budget.maxTurns" must be a positive whole number`},
		{"fractional budget", `[{"name": "a", "budget": {"maxTokens": 1.5}}]`, `"budget.maxTokens"`},
		{"maxWallMs past a Duration", `[{"name": "a", "budget": {"maxWallMs": 9223372036855}}]`, `"budget.maxWallMs" must be at most 9223372036854`},
		{"huge maxTokens", `[{"name": "a", "budget": {"maxTokens": 1e300}}]`, `"budget.maxTokens" must be a whole number`},
		{"string maxDepth", `[{"name": "a", "budget": {"maxDepth": "3"}}]`, `"budget.maxDepth" must be a whole number`},
		{"team a string", `[{"name": "a", "team": "b"}]`, `"team" must be an array of names`},
		{"team of numbers", `[{"name": "a", "team": [1]}]`, `"team" must hold non-empty strings only`},
		{"unknown budget field", `[{"name": "a", "budget": {"turns": 3}}]`, `"budget.turns" is not a known field`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			decls, err := ParseAgents(c.text, known)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; got %+v", decls)
			}
			list := problemList(err)
			if len(list) != 1 || list[0].Setting != AgentsSetting || !strings.Contains(list[0].Problem, c.wantErr) {
				t.Errorf("error %v, want AGENTS ... %s", err, c.wantErr)
			}
		})
	}
	decls, err := ParseAgents(testAgents, known)
	if err != nil || len(decls) != 2 || decls[1].Budget == nil || decls[1].Budget.MaxTurns != 4 || decls[0].Team[0] != "billing" {
		t.Errorf("testAgents parsed as %+v, %v", decls, err)
	}
	if want := fmt.Sprintf("must be at most %d ", agents.MaxWallMsLimit); !strings.HasPrefix(maxWallProblem, want) {
		t.Errorf("maxWallProblem = %q, want it to start %q", maxWallProblem, want)
	}
	decls, _ = ParseAgents(`[{"name": "a", "budget": {"maxWallMs": 1500}}]`, nil)
	if decls[0].Budget.MaxWall != 1500*time.Millisecond {
		t.Errorf("maxWallMs read as %v", decls[0].Budget.MaxWall)
	}
}

// A misconfigured AGENTS surfaces at once: /readyz names it, /v1/run
// answers 500 naming it (with the other problems), and nothing calls the
// model.
func TestAgentsMisconfiguredIsAConfigError(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["AGENTS"] = `[{"name": "support", "team": ["billing"]}]`
	})
	rec := hs.Do(http.MethodGet, "/readyz", "")
	body := decodeMap(t, rec)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"setting":"AGENTS","problem":"agent support: team member \"billing\" is not declared"`) {
		t.Errorf("readyz = %d %s", rec.Code, rec.Body.String())
	}
	if body["run"] != false {
		t.Errorf("readyz run = %v, want false", body["run"])
	}
	for _, req := range []map[string]any{{"prompt": "hi"}, {"prompt": "review order 42", "agent": "support"}} {
		code, body := hs.Post("/v1/run", req)
		if code != http.StatusInternalServerError || errCode(body) != "config" || !strings.Contains(body["error"].(map[string]any)["message"].(string), "AGENTS agent support") {
			t.Errorf("run %v = %d %v", req, code, body)
		}
	}
	if n := len(hs.llm.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}

// An agent of AGENTS may use a tool of HTTP_TOOLS: it is offered to every
// request, so the check knows it (issue 36: the A2A tests' billing agent
// refunds through an HTTP tool).
func TestAgentsMayNameHTTPTools(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) {
		env["HTTP_TOOLS"] = `[{"name": "refund_order", "description": "Refund an order.", "url": "https://shop.example/refunds", "method": "POST", "needsApproval": true}]`
		env["AGENTS"] = `[{"name": "billing", "does": "refunds orders", "tools": ["refund_order"]}, {"name": "clerk", "tools": ["wire_money"]}]`
	})
	rec := hs.Do(http.MethodGet, "/readyz", "")
	if !strings.Contains(rec.Body.String(), `agent clerk: tool \"wire_money\" is not offered`) || strings.Contains(rec.Body.String(), "refund_order") {
		t.Fatalf("readyz = %d %s", rec.Code, rec.Body.String())
	}
}
