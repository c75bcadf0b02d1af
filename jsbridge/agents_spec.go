//go:build js && wasm

package jsbridge

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"math"
	"strings"
	"syscall/js"

	"github.com/toolnexus/wasm/core/agents"
)

// maxTeamNesting bounds how deep teams nest in one spec (support › billing
// is 2). Building is recursive, so without it a hostile spec chained
// thousands deep would be walked frame by frame; no budget lets a run
// reach past a few levels anyway.
const maxTeamNesting = 32

// agentEnv is what building a team's agents shares: the tools' environment,
// the runtime's dialogs, and the agents built so far by name (with their
// JS spec), so a team that names an agent twice (or in a cycle) gets one
// Agent; depth is how deep in the team nesting the current spec sits.
type agentEnv struct {
	tools   ToolEnv
	dialogs *dialogs
	seen    map[string]builtAgent
	depth   int
}

type builtAgent struct {
	spec  js.Value
	agent *agents.Agent
}

// agentFromJS builds an Agent from a spec {name, does, instructions, tools,
// team, budget, model, waitFor}. Every malformed field is an error naming
// the agent and the field.
func agentFromJS(v js.Value, env agentEnv) (*agents.Agent, error) {
	if v.Type() != js.TypeObject {
		return nil, fmt.Errorf("expected an agent from createAgent, got a %s", v.Type())
	}
	nameV := v.Get("name")
	if nameV.Type() != js.TypeString || nameV.String() == "" {
		return nil, errors.New("an agent needs a name (a non-empty string)")
	}
	name := nameV.String()
	if strings.Contains(name, "/") {
		return nil, fmt.Errorf("agent %q: a name cannot hold \"/\" (it separates handle ids)", name)
	}
	if b, ok := env.seen[name]; ok {
		if !b.spec.Equal(v) {
			return nil, fmt.Errorf("two different agents are named %q", name)
		}
		return b.agent, nil // a cycle or a shared member: the same Agent
	}
	if env.depth >= maxTeamNesting {
		return nil, fmt.Errorf("agent %q: teams nest deeper than %d levels", name, maxTeamNesting)
	}
	spec := agents.Spec{}
	for _, f := range []struct {
		key string
		dst *string
	}{{"does", &spec.Does}, {"instructions", &spec.Instructions}, {"model", &spec.Model}} {
		p := v.Get(f.key)
		switch p.Type() {
		case js.TypeUndefined, js.TypeNull:
		case js.TypeString:
			*f.dst = p.String()
		default:
			return nil, fmt.Errorf("agent %q: %s must be a string, not a %s", name, f.key, p.Type())
		}
	}
	a := agents.New(name, spec)
	env.seen[name] = builtAgent{spec: v, agent: a}
	if w := v.Get("waitFor"); isFunc(w) {
		a.Spec.WaitForContext = env.dialogs.waitFor(w)
	} else if !w.IsUndefined() && !w.IsNull() {
		return nil, fmt.Errorf("agent %q: waitFor must be a function", name)
	}
	if b := v.Get("budget"); !b.IsUndefined() && !b.IsNull() {
		budget, err := budgetFromJS(b)
		if err != nil {
			return nil, fmt.Errorf("agent %q: %w", name, err)
		}
		a.Spec.Budget = budget
	}
	tools, team := v.Get("tools"), v.Get("team")
	if err := checkList(tools, "tools"); err != nil {
		return nil, fmt.Errorf("agent %q: %w", name, err)
	}
	if err := checkList(team, "team"); err != nil {
		return nil, fmt.Errorf("agent %q: %w", name, err)
	}
	names := map[string]bool{}
	for i := 0; isArray(tools) && i < tools.Length(); i++ {
		t, err := ToolFromJS(tools.Index(i), env.tools)
		if err != nil {
			return nil, fmt.Errorf("agent %q: tools[%d]: %w", name, i, err)
		}
		switch {
		case t.Name == "":
			return nil, fmt.Errorf("agent %q: tools[%d] has no name", name, i)
		case names[t.Name]:
			return nil, fmt.Errorf("agent %q: two tools are named %q", name, t.Name)
		case t.Name == "task" && isArray(team) && team.Length() > 0:
			return nil, fmt.Errorf("agent %q: a tool named \"task\" would hide its team's task tool", name)
		}
		names[t.Name] = true
		a.Spec.Tools = append(a.Spec.Tools, t)
	}
	inner := env
	inner.depth++
	for i := 0; isArray(team) && i < team.Length(); i++ {
		member, err := agentFromJS(team.Index(i), inner)
		if err != nil {
			return nil, fmt.Errorf("%s: team[%d]: %w", name, i, err)
		}
		a.Spec.Team = append(a.Spec.Team, member)
	}
	return a, nil
}

// checkList accepts an array or nothing.
func checkList(v js.Value, what string) error {
	if v.IsUndefined() || v.IsNull() || isArray(v) {
		return nil
	}
	return fmt.Errorf("%s must be an array, not a %s", what, v.Type())
}

// budgetFromJS reads {maxTurns, maxTokens, maxToolCalls, maxWallMs,
// maxChildren, maxConcurrent, maxDepth}: whole numbers ≥ 0, where absent,
// null or 0 leave the field unset; maxTokens and maxToolCalls also take
// Infinity (no cap of their own). Anything else is an error naming the
// field, so a typo'd or overflowing budget never silently means "none".
func budgetFromJS(b js.Value) (*agents.Budget, error) {
	if b.Type() != js.TypeObject || isArray(b) {
		return nil, fmt.Errorf("budget must be an object, not a %s", b.Type())
	}
	var out agents.Budget
	var wallMs int64
	fields := []struct {
		key      string
		max      float64
		infinite bool
		set      func(int64)
	}{
		{"maxTurns", maxSafeInt, false, func(n int64) { out.MaxTurns = int(n) }},
		{"maxTokens", maxSafeInt, true, func(n int64) { out.MaxTokens = n }},
		{"maxToolCalls", maxSafeInt, true, func(n int64) { out.MaxToolCalls = n }},
		{"maxWallMs", float64(agents.MaxWallMsLimit), false, func(n int64) { wallMs = n }},
		{"maxChildren", maxSafeInt, false, func(n int64) { out.MaxChildren = int(n) }},
		{"maxConcurrent", maxSafeInt, false, func(n int64) { out.MaxConcurrent = int(n) }},
		{"maxDepth", maxSafeInt, false, func(n int64) { out.MaxDepth = int(n) }},
	}
	for _, f := range fields {
		p := b.Get(f.key)
		if p.IsUndefined() || p.IsNull() {
			continue
		}
		if p.Type() != js.TypeNumber {
			return nil, fmt.Errorf("budget.%s must be a number, not a %s", f.key, p.Type())
		}
		n := p.Float()
		switch {
		case f.infinite && math.IsInf(n, 1):
			f.set(agents.Unlimited)
		case math.IsNaN(n) || math.IsInf(n, 0) || n != math.Trunc(n) || n < 0 || n > f.max:
			return nil, fmt.Errorf("budget.%s must be a whole number from 0 to %.0f, got %v", f.key, f.max, n)
		default:
			f.set(int64(n))
		}
	}
	out.MaxWall = msDuration(wallMs)
	return &out, nil
}

// maxSafeInt is Number.MAX_SAFE_INTEGER: the largest count a JS number
// holds exactly.
const maxSafeInt = 1<<53 - 1

// msArg reads a millisecond count argument (undefined or null: 0).
func msArg(v js.Value, what string) (int64, error) {
	if v.IsUndefined() || v.IsNull() {
		return 0, nil
	}
	if v.Type() != js.TypeNumber {
		return 0, fmt.Errorf("%s must be a number of milliseconds, not a %s", what, v.Type())
	}
	n := v.Float() // Float panics on a non-number: the type is checked first
	if math.IsNaN(n) || n < 0 || n > float64(agents.MaxWallMsLimit) {
		return 0, fmt.Errorf("%s must be a number of milliseconds from 0 to %d", what, agents.MaxWallMsLimit)
	}
	return int64(n), nil
}

func isArray(v js.Value) bool {
	return v.Type() == js.TypeObject && js.Global().Get("Array").Call("isArray", v).Bool()
}
