//go:build js && wasm

package jsbridge

import (
	"strconv"
	"strings"
	"syscall/js"
	"testing"

	"github.com/toolnexus/wasm/core/agents"
)

// jsEval builds a JS value from source (go_js_wasm_exec runs under Node).
func jsEval(src string) js.Value { return js.Global().Call("eval", "("+src+")") }

func specEnv() agentEnv {
	return agentEnv{dialogs: newDialogs(), seen: map[string]builtAgent{}}
}

// TestAgentSpecsRefuseHostileInput: every malformed spec is an error naming
// the agent and the field, never a panic (under wasm it would end the
// module) nor a silently dropped field.
func TestAgentSpecsRefuseHostileInput(t *testing.T) {
	const tool = `{name: "refund", run: () => "ok"}`
	deep := func(n int) string { // n agents, each the only team member of the one before
		return `(() => { let a = {name: "a0"}; for (let i = 1; i < ` + strconv.Itoa(n) + `; i++) a = {name: "a" + i, team: [a]}; return a; })()`
	}
	for _, tc := range []struct{ name, spec, want string }{
		{"not an object", `42`, "expected an agent from createAgent, got a number"},
		{"null", `null`, "got a null"},
		{"numeric name", `{name: 7}`, "needs a name"},
		{"empty name", `{name: ""}`, "needs a name"},
		{"slash in name", `{name: "a/b"}`, `cannot hold "/"`},
		{"does not a string", `{name: "a", does: 5}`, `agent "a": does must be a string, not a number`},
		{"instructions an object", `{name: "a", instructions: {}}`, "instructions must be a string"},
		{"tools a string", `{name: "a", tools: "refund"}`, `agent "a": tools must be an array, not a string`},
		{"tool a number", `{name: "a", tools: [42]}`, `agent "a": tools[0]: a tool must be an object`},
		{"tool null", `{name: "a", tools: [null]}`, "tools[0]: a tool must be an object"},
		{"tool without run", `{name: "a", tools: [{name: "x"}]}`, `needs a run function`},
		{"tool without name", `{name: "a", tools: [{run: () => 1}]}`, "tools[0] has no name"},
		{"tools twice", `{name: "a", tools: [` + tool + `, ` + tool + `]}`, `two tools are named "refund"`},
		{"tool named task", `{name: "a", tools: [{name: "task", run: () => 1}], team: [{name: "b"}]}`, `"task" would hide`},
		{"team an object", `{name: "a", team: {b: 1}}`, "team must be an array"},
		{"team member a number", `{name: "a", team: [42]}`, "a: team[0]: expected an agent"},
		{"team member nameless", `{name: "a", team: [{does: "x"}]}`, "a: team[0]: an agent needs a name"},
		{"two agents one name", `{name: "a", team: [{name: "b"}, {name: "b", does: "other"}]}`, `two different agents are named "b"`},
		{"10000 deep", deep(10000), "teams nest deeper than 32 levels"},
		{"waitFor not a function", `{name: "a", waitFor: "yes"}`, "waitFor must be a function"},
		{"budget a string", `{name: "a", budget: "big"}`, "budget must be an object, not a string"},
		{"budget an array", `{name: "a", budget: [4]}`, "budget must be an object"},
		{"huge maxTurns", `{name: "a", budget: {maxTurns: 1e300}}`, "budget.maxTurns must be a whole number"},
		{"huge maxWallMs", `{name: "a", budget: {maxWallMs: 1e300}}`, "budget.maxWallMs must be a whole number"},
		{"maxWallMs past a Duration", `{name: "a", budget: {maxWallMs: 9223372036855}}`, "budget.maxWallMs"},
		{"negative maxTokens", `{name: "a", budget: {maxTokens: -1}}`, "budget.maxTokens"},
		{"fractional maxDepth", `{name: "a", budget: {maxDepth: 1.5}}`, "budget.maxDepth"},
		{"NaN maxTurns", `{name: "a", budget: {maxTurns: NaN}}`, "budget.maxTurns"},
		{"Infinity maxTurns", `{name: "a", budget: {maxTurns: Infinity}}`, "budget.maxTurns"},
		{"string maxTurns", `{name: "a", budget: {maxTurns: "4"}}`, "budget.maxTurns must be a number, not a string"},
		{"deep member's budget", `{name: "a", team: [{name: "b", budget: {maxChildren: -3}}]}`, `a: team[0]: agent "b": budget.maxChildren`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := agentFromJS(jsEval(tc.spec), specEnv())
			if err == nil {
				t.Fatalf("built %q from %s; want an error containing %q", a.Name, tc.spec, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant one containing %q", err, tc.want)
			}
		})
	}
	t.Run("31 deep is fine", func(t *testing.T) {
		a, err := agentFromJS(jsEval(deep(maxTeamNesting)), specEnv())
		if err != nil {
			t.Fatal(err)
		}
		if n := len(a.Registry()); n != maxTeamNesting {
			t.Errorf("registry has %d agents, want %d", n, maxTeamNesting)
		}
	})
}

// TestAgentSpecsAcceptCyclesAndUnlimited: a team cycle builds one Agent per
// name, and Infinity is "no cap of its own" for the pools.
func TestAgentSpecsAcceptCyclesAndUnlimited(t *testing.T) {
	spec := jsEval(`(() => {
		const support = {name: "support", team: [], budget: {maxTokens: Infinity, maxToolCalls: Infinity, maxWallMs: 1000, maxTurns: null}};
		const billing = {name: "billing", team: [support]};
		support.team.push(billing, billing); // a cycle, and one member twice
		return support;
	})()`)
	a, err := agentFromJS(spec, specEnv())
	if err != nil {
		t.Fatal(err)
	}
	reg := a.Registry()
	if len(reg) != 2 || len(reg["billing"].Team) != 1 || reg["billing"].Team[0] != "support" {
		t.Errorf("registry = %v", reg)
	}
	b := a.Spec.Budget
	if b == nil || b.MaxTokens != agents.Unlimited || b.MaxToolCalls != agents.Unlimited || b.MaxWall.Milliseconds() != 1000 || b.MaxTurns != 0 {
		t.Errorf("budget = %+v", b)
	}
}
