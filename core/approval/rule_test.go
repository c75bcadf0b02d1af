package approval

import (
	"testing"
)

// rulesOfASupportTeam are three rules a support team would write (the
// README's), for the tests to hold.
const rulesOfASupportTeam = `[
 {"name": "small refunds", "tool": "refund", "when": [{"path": "amount", "op": "<=", "value": 50}], "decision": "allow"},
 {"name": "no deletes from chat", "tool": "delete_*", "decision": "deny", "reason": "deleting is done by the team, not from chat"},
 {"name": "github writes", "source": "mcp", "server": "github", "decision": "ask"}
]`

func TestDecide(t *testing.T) {
	rules, err := Parse([]byte(rulesOfASupportTeam))
	if err != nil {
		t.Fatal(err)
	}
	more, err := Parse([]byte(`[
	 {"tool": "write", "source": "builtin", "when": [{"path": "path", "op": "startsWith", "value": "drafts/"}], "decision": "allow"},
	 {"tool": "write", "source": "builtin", "decision": "deny"},
	 {"name": "gold", "tool": "discount", "when": [{"path": "customer.tier", "op": "oneOf", "value": ["gold", "platinum"]}, {"path": "items.0.qty", "op": ">", "value": 2}], "decision": "allow"},
	 {"tool": "discount", "when": [{"path": "code", "op": "==", "value": "STAFF"}], "decision": "deny", "reason": "staff codes are not for customers"},
	 {"tool": "discount", "when": [{"path": "code", "op": "!=", "value": "STAFF"}], "decision": "ask"},
	 {"tool": "refund", "agent": "support/billing", "decision": "deny", "reason": "billing under support does not refund"},
	 {"tool": "refund", "agent": "billing", "decision": "ask"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	all := append(rules, more...)
	tests := []struct {
		name string
		call Call
		want Decision
		rule string
	}{
		{"allow below the boundary", Call{Tool: "refund", Args: map[string]any{"amount": 49.99}}, Allow, "small refunds"},
		{"allow at the boundary", Call{Tool: "refund", Args: map[string]any{"amount": float64(50)}}, Allow, "small refunds"},
		{"no rule above the boundary", Call{Tool: "refund", Args: map[string]any{"amount": 50.01}}, "", ""},
		{"numeric text compares as a number", Call{Tool: "refund", Args: map[string]any{"amount": "40"}}, Allow, "small refunds"},
		{"numeric text above the boundary", Call{Tool: "refund", Args: map[string]any{"amount": "5000"}}, "", ""},
		{"a missing path does not match", Call{Tool: "refund", Args: map[string]any{"order": "42"}}, "", ""},
		{"a value of another type does not match", Call{Tool: "refund", Args: map[string]any{"amount": true}}, "", ""},
		{"deny by prefix", Call{Tool: "delete_repo"}, Deny, "no deletes from chat"},
		{"mcp server", Call{Tool: "github_create_issue", Source: "mcp", Server: "github"}, Ask, "github writes"},
		{"another mcp server", Call{Tool: "docs_search", Source: "mcp", Server: "docs"}, "", ""},
		{"built-in in drafts", Call{Tool: "write", Source: "builtin", Args: map[string]any{"path": "drafts/a.md"}}, Allow, "rule 4"},
		{"built-in escaping drafts", Call{Tool: "write", Source: "builtin", Args: map[string]any{"path": "drafts/../secret.md"}}, Deny, "rule 5"},
		{"built-in elsewhere", Call{Tool: "write", Source: "builtin", Args: map[string]any{"path": "notes.md"}}, Deny, "rule 5"},
		{"a js tool of the same name", Call{Tool: "write", Source: "js", Args: map[string]any{"path": "notes.md"}}, "", ""},
		{"every condition holds", Call{Tool: "discount", Args: map[string]any{"customer": map[string]any{"tier": "gold"}, "items": []any{map[string]any{"qty": float64(3)}}}}, Allow, "gold"},
		{"one condition fails", Call{Tool: "discount", Args: map[string]any{"customer": map[string]any{"tier": "gold"}, "items": []any{map[string]any{"qty": float64(2)}}, "code": "X"}}, Ask, "rule 8"},
		{"an index past the end", Call{Tool: "discount", Args: map[string]any{"customer": map[string]any{"tier": "gold"}, "items": []any{}, "code": "STAFF"}}, Deny, "rule 7"},
		{"!= needs the value", Call{Tool: "discount", Args: map[string]any{}}, "", ""},
		{"agent path's end", Call{Tool: "refund", Path: []string{"support", "billing"}, Args: map[string]any{"amount": float64(500)}}, Deny, "rule 9"},
		{"agent name", Call{Tool: "refund", Path: []string{"billing"}, Args: map[string]any{"amount": float64(500)}}, Ask, "rule 10"},
		{"no agent outside a team", Call{Tool: "refund", Args: map[string]any{"amount": float64(500)}}, "", ""},
		{"first match wins", Call{Tool: "refund", Path: []string{"support", "billing"}, Args: map[string]any{"amount": float64(5)}}, Allow, "small refunds"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Decide(all, tc.call)
			if v.Decision != tc.want || v.Rule != tc.rule {
				t.Errorf("Decide = %+v, want %q by %q", v, tc.want, tc.rule)
			}
		})
	}
}

func TestAlwaysAskBeatsAllow(t *testing.T) {
	rules := []Rule{{Tool: "refund", Decision: Allow}, {Tool: "wipe", Decision: Deny}}
	v := Decide(rules, Call{Tool: "refund", AlwaysAsk: true})
	if v.Decision != Ask || !v.Overruled || v.Rule != "rule 1" {
		t.Errorf("allow of an always-ask tool = %+v, want ask, overruled", v)
	}
	if v := Decide(rules, Call{Tool: "wipe", AlwaysAsk: true}); v.Decision != Deny {
		t.Errorf("deny of an always-ask tool = %+v, want deny", v)
	}
}

func TestRuleFuncPassesOn(t *testing.T) {
	rules := []Rule{
		{Name: "guard", Func: func(c Call) (Decision, string) {
			if c.Args["order"] == "42" {
				return Deny, "under review"
			}
			return "", ""
		}},
		{Tool: "refund", Decision: Ask},
	}
	if v := Decide(rules, Call{Tool: "refund", Args: map[string]any{"order": "42"}}); v.Decision != Deny || v.Reason != "under review" || v.Rule != "guard" {
		t.Errorf("guard = %+v", v)
	}
	if v := Decide(rules, Call{Tool: "refund", Args: map[string]any{"order": "7"}}); v.Decision != Ask || v.Rule != "rule 2" {
		t.Errorf("passed on = %+v", v)
	}
}

func TestForAgentKeepsNames(t *testing.T) {
	rules := []Rule{{Tool: "a", Decision: Allow}, {Tool: "b", Agent: "billing", Decision: Deny}, {Tool: "c", Agent: "sales", Decision: Deny}}
	got := ForAgent(rules, []string{"support", "billing"})
	if len(got) != 2 || got[0].Name != "rule 1" || got[1].Name != "rule 2" || got[1].Agent != "" {
		t.Fatalf("ForAgent = %+v", got)
	}
	if v := Decide(got, Call{Tool: "b"}); v.Decision != Deny || v.Rule != "rule 2" {
		t.Errorf("Decide = %+v", v)
	}
}
