package approval

import (
	"math"
	"strconv"
	"strings"
)

// Decision is what a rule decides about a call.
type Decision string

// The decisions of a rule.
const (
	Allow Decision = "allow" // run without asking
	Deny  Decision = "deny"  // do not run; the model is told Reason
	Ask   Decision = "ask"   // wait for a person's approval
)

// Rule is one approval rule. Every field it sets must match a call; unset
// fields match any call.
type Rule struct {
	// Name names the rule in the record ("rule 2", its place in the list
	// counting from 1, when empty).
	Name string `json:"name,omitempty"`
	// Tool is a tool name: exact, a prefix ending in "*" ("delete_*"), or
	// "*" for any.
	Tool string `json:"tool,omitempty"`
	// Source is where the tool comes from: js, http, mcp, a2a, builtin,
	// native, relay, skill or custom.
	Source string `json:"source,omitempty"`
	// Server is the configured name of the MCP server an MCP tool comes
	// from.
	Server string `json:"server,omitempty"`
	// Agent is the agent asking, in a team: its name ("billing"), or the
	// end of its path from the top ("support/billing"). A call made
	// outside a team matches no rule that names an agent.
	Agent string `json:"agent,omitempty"`
	// When are conditions on the call's arguments; all must hold.
	When []Cond `json:"when,omitempty"`
	// Decision is allow, deny or ask.
	Decision Decision `json:"decision"`
	// Reason is what the model is told of a deny ("denied by rule" when
	// empty), and what the record says of any decision.
	Reason string `json:"reason,omitempty"`
	// Func, in rules made in Go only (an agent's guardrail), decides in
	// place of Decision and Reason for the calls the other fields match;
	// it returns "" to leave the call to the next rule. JSON cannot carry
	// it.
	Func func(Call) (Decision, string) `json:"-"`
}

// Cond is a condition on the value at Path in a call's arguments: a JSON
// path of object keys and array indexes joined by dots ("amount",
// "customer.tier", "items.0.sku"). Op is one of
//
//	==  !=           equal to Value (a string, number, boolean or null)
//	<  <=  >  >=     compared with Value, a number; an argument that is a
//	                 number, or text that reads as one ("50"), compares
//	startsWith       text beginning with Value, a string; when Value ends
//	                 in "/", the argument is read as a slash path and
//	                 cleaned first, so "drafts/../secret" does not start
//	                 with "drafts/"
//	oneOf            equal to one of Value, a list of strings, numbers,
//	                 booleans or nulls
//
// A path the arguments lack, or a value of another type, does not match
// (it is not an error): "!=" needs the value to be there, too.
type Cond struct {
	Path  string `json:"path"`
	Op    string `json:"op"`
	Value any    `json:"value"`
}

// Call is what rules see of a tool call.
type Call struct {
	// ID is the call's id; Turn the model call it belongs to, counting
	// from 0 (as core's hooks do).
	ID   string
	Turn int
	// Tool, Source and Server are the tool's name, source and MCP server.
	Tool, Source, Server string
	// Path is the asking agent's path from the top ("support", "billing"),
	// nil outside a team.
	Path []string
	// Args are the arguments the model asked for.
	Args map[string]any
	// AlwaysAsk is the tool's own mark: no rule may allow it.
	AlwaysAsk bool
}

// Verdict is what Decide found.
type Verdict struct {
	// Decision is the matching rule's ("" when none matched). An allow
	// of an always-ask tool is Ask, with Overruled set.
	Decision Decision
	// Rule names the matching rule.
	Rule string
	// Reason is the rule's (or its Func's) reason.
	Reason    string
	Overruled bool
}

// RuleName is the name rule i of a list goes by in the record.
func RuleName(rules []Rule, i int) string {
	if rules[i].Name != "" {
		return rules[i].Name
	}
	return "rule " + strconv.Itoa(i+1)
}

// Decide reads rules in order and returns the first matching rule's
// verdict; a rule whose Func passes does not match. No match is the zero
// Verdict: the tool's own NeedsApproval decides.
func Decide(rules []Rule, c Call) Verdict {
	for i := range rules {
		r := &rules[i]
		if !r.matches(c) {
			continue
		}
		d, reason := r.Decision, r.Reason
		if r.Func != nil {
			if d, reason = r.Func(c); d == "" {
				continue
			}
		}
		v := Verdict{Decision: d, Rule: RuleName(rules, i), Reason: reason}
		if d == Allow && c.AlwaysAsk {
			v.Decision, v.Overruled = Ask, true
		}
		return v
	}
	return Verdict{}
}

func (r *Rule) matches(c Call) bool {
	if !nameMatches(r.Tool, c.Tool) || (r.Source != "" && r.Source != c.Source) || (r.Server != "" && r.Server != c.Server) {
		return false
	}
	if r.Agent != "" && !agentMatches(r.Agent, c.Path) {
		return false
	}
	for _, cond := range r.When {
		if !cond.holds(c.Args) {
			return false
		}
	}
	return true
}

// nameMatches matches a tool name against "", "*", "prefix*" or a name.
func nameMatches(pattern, name string) bool {
	if pattern == "" || pattern == "*" {
		return true
	}
	if p, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, p)
	}
	return pattern == name
}

// agentMatches reports whether path ends with the agents of want, a name
// or names joined by "/".
func agentMatches(want string, path []string) bool {
	names := strings.Split(want, "/")
	if len(names) > len(path) {
		return false
	}
	tail := path[len(path)-len(names):]
	for i, n := range names {
		if tail[i] != n {
			return false
		}
	}
	return true
}

// holds reports whether the condition holds for args.
func (c Cond) holds(args map[string]any) bool {
	v, ok := lookup(args, c.Path)
	if !ok {
		return false
	}
	switch c.Op {
	case "==":
		return equal(v, c.Value)
	case "!=":
		return !equal(v, c.Value)
	case "<", "<=", ">", ">=":
		a, ok1 := number(v)
		b, ok2 := number(c.Value)
		if !ok1 || !ok2 {
			return false
		}
		switch c.Op {
		case "<":
			return a < b
		case "<=":
			return a <= b
		case ">":
			return a > b
		}
		return a >= b
	case "startsWith":
		s, ok1 := v.(string)
		prefix, ok2 := c.Value.(string)
		if !ok1 || !ok2 {
			return false
		}
		if strings.HasSuffix(prefix, "/") {
			s = cleanPath(s)
		}
		return strings.HasPrefix(s, prefix)
	case "oneOf":
		list, _ := c.Value.([]any)
		for _, w := range list {
			if equal(v, w) {
				return true
			}
		}
	}
	return false
}

// lookup walks a dotted path through objects and arrays.
func lookup(args map[string]any, p string) (any, bool) {
	var cur any = args
	for _, seg := range strings.Split(p, ".") {
		switch node := cur.(type) {
		case map[string]any:
			v, ok := node[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(node) {
				return nil, false
			}
			cur = node[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// equal compares an argument with a rule's scalar: numbers by value (an
// argument's numeric text too), others by type and value.
func equal(arg, want any) bool {
	if w, ok := number(want); ok {
		if _, isText := want.(string); !isText {
			a, ok := number(arg)
			return ok && a == w
		}
	}
	switch w := want.(type) {
	case string:
		a, ok := arg.(string)
		return ok && a == w
	case bool:
		a, ok := arg.(bool)
		return ok && a == w
	case nil:
		return arg == nil
	}
	return false
}

// number reads a JSON number (or a Go one), or text that is one.
func number(v any) (float64, bool) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case int32:
		f = float64(n)
	case uint:
		f = float64(n)
	case uint64:
		f = float64(n)
	case uint32:
		f = float64(n)
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(n), 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// ForAgent is the part of rules that applies to the agent at path (its
// names from the top): the rules that name no agent, and those whose Agent
// matches path, without it. Each keeps the name it has in rules, so the
// record names it the same.
func ForAgent(rules []Rule, path []string) []Rule {
	var out []Rule
	for i, r := range rules {
		if r.Agent != "" && !agentMatches(r.Agent, path) {
			continue
		}
		r.Name, r.Agent = RuleName(rules, i), ""
		out = append(out, r)
	}
	return out
}

// cleanPath resolves the "." and ".." parts of a slash path and drops
// empty ones, as path.Clean does for the paths a rule compares ("a/./b",
// "a//b" and "a/x/../b" are "a/b"; a leading "/" stays; ".." past the
// start stays, so it never looks like a path under the prefix). Written
// here: path.Clean costs the browser build 6.6 kB raw.
func cleanPath(p string) string {
	var out []string
	for _, part := range strings.Split(p, "/") {
		switch {
		case part == "" || part == ".":
		case part == ".." && len(out) > 0 && out[len(out)-1] != "..":
			out = out[:len(out)-1]
		default:
			out = append(out, part)
		}
	}
	c := strings.Join(out, "/")
	if strings.HasPrefix(p, "/") {
		c = "/" + c
	}
	return c
}
