package approval

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestParseReportsEveryProblem: a list with several bad rules names each
// problem at once, and nothing of it is used.
func TestParseReportsEveryProblem(t *testing.T) {
	text := `[
	 {"tool": "refund", "decision": "maybe"},
	 {"tool": "refund", "when": [{"path": "amount", "op": "<=", "value": "fifty"}], "decision": "allow"},
	 {"tool": "refund", "when": [{"path": "", "op": "==", "value": 1}], "decision": "allow"},
	 {"tool": "refund", "when": [{"path": "a..b", "op": "==", "value": 1}], "decision": "allow"},
	 {"tool": "refund", "when": [{"path": "a", "op": "like", "value": 1}], "decision": "allow"},
	 {"tool": "refund", "when": [{"path": "a", "op": "oneOf", "value": "x"}], "decision": "allow"},
	 {"tool": "refund", "when": [{"path": "a", "op": "startsWith", "value": 3}], "decision": "allow"},
	 {"tool": "refund", "when": [{"path": "a", "op": "==", "value": {"x": 1}}], "decision": "allow"},
	 {"source": "mpc", "decision": "ask"},
	 {"tool": "re*und", "decision": "ask"},
	 {"agent": "support//billing", "decision": "ask"},
	 {"tool": "refund", "decision": "allow", "colour": "blue"},
	 {"tool": "refund"},
	 "allow refunds",
	 {"tool": "refund", "decision": "allow", "when": {"path": "a"}},
	 {"name": "fine", "tool": "refund", "decision": "deny"}
	]`
	_, err := Parse([]byte(text))
	var problems Problems
	if !errors.As(err, &problems) {
		t.Fatalf("err = %v, want Problems", err)
	}
	want := []string{
		`rule 1: "decision" must be allow, deny or ask, not "maybe"`,
		`rule 2: condition 1: "value" of <= must be a number`,
		`rule 3: condition 1: "path" is required`,
		`rule 4: condition 1: "path" "a..b" has an empty part`,
		`rule 5: condition 1: "op" must be ==, !=, <, <=, >, >=, startsWith or oneOf, not "like"`,
		`rule 6: condition 1: "value" of oneOf must be a list`,
		`rule 7: condition 1: "value" of startsWith must be a non-empty string`,
		`rule 8: condition 1: "value" of == must be a string, a number, true, false or null`,
		`rule 9: "source" must be one of js, http, mcp`,
		`rule 10: "tool" may hold "*" only at its end`,
		`rule 11: "agent" must be an agent's name`,
		`rule 12: "colour" is not a known field`,
		`rule 13: "decision" is required`,
		`rule 14: the value must be an object`,
		`rule 15: "when" must be an array of conditions`,
	}
	if len(problems) != len(want) {
		t.Fatalf("%d problems, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) && !strings.Contains(problems[i], w) {
			t.Errorf("problem %d = %q, want %q", i+1, problems[i], w)
		}
	}
}

func TestParseRefusesWhatIsNotAList(t *testing.T) {
	for text, want := range map[string]string{
		`{"tool": "refund"}`: "must be a JSON array",
		`[{"tool": "refund"`: "not valid JSON",
		``:                   "not valid JSON",
		strings.Repeat("[", 20) + strings.Repeat("]", 20): "not valid JSON",
	} {
		if _, err := Parse([]byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%.30q) = %v, want %q", text, err, want)
		}
	}
	if rules, err := Parse([]byte(`[]`)); err != nil || len(rules) != 0 {
		t.Errorf("an empty list: %v, %v", rules, err)
	}
}

// TestOversizeRuleLists: too many rules, too long a text, too many
// conditions or values are refused by name.
func TestOversizeRuleLists(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i <= MaxRules; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"tool":"t` + strconv.Itoa(i) + `","decision":"ask"}`)
	}
	b.WriteString("]")
	if _, err := Parse([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "201 rules; at most 200") {
		t.Errorf("too many rules: %v", err)
	}
	long := `[{"tool":"t","decision":"ask","reason":"` + strings.Repeat("x", MaxRulesText) + `"}]`
	if _, err := Parse([]byte(long)); err == nil || !strings.Contains(err.Error(), "at most 262144 are allowed") {
		t.Errorf("too long: %v", err)
	}
	var conds []string
	for i := 0; i <= MaxConds; i++ {
		conds = append(conds, `{"path":"a","op":"==","value":1}`)
	}
	if _, err := Parse([]byte(`[{"decision":"ask","when":[` + strings.Join(conds, ",") + `]}]`)); err == nil || !strings.Contains(err.Error(), "17 conditions; at most 16") {
		t.Errorf("too many conditions: %v", err)
	}
	values := strings.Repeat(`1,`, MaxOneOf) + "1"
	if _, err := Parse([]byte(`[{"decision":"ask","when":[{"path":"a","op":"oneOf","value":[` + values + `]}]}]`)); err == nil || !strings.Contains(err.Error(), "more than 100 values") {
		t.Errorf("too many values: %v", err)
	}
	if err := Check(make([]Rule, MaxRules+1)); err == nil || !strings.Contains(err.Error(), "at most 200") {
		t.Errorf("Check: too many rules: %v", err)
	}
}

// TestCheckReadsGoValues: rules built in Go with Go numbers and string
// lists decide as their JSON twins.
func TestCheckReadsGoValues(t *testing.T) {
	rules := []Rule{{Tool: "refund", When: []Cond{{Path: "amount", Op: "<=", Value: 50}, {Path: "currency", Op: "oneOf", Value: []string{"EUR", "USD"}}}, Decision: Allow}}
	if err := Check(rules); err != nil {
		t.Fatal(err)
	}
	if v := Decide(rules, Call{Tool: "refund", Args: map[string]any{"amount": float64(50), "currency": "EUR"}}); v.Decision != Allow {
		t.Errorf("Decide = %+v", v)
	}
	bad := []Rule{{Decision: "yes"}, {Decision: Allow, When: []Cond{{Path: "a", Op: "<", Value: "1"}}}}
	if err := Check(bad); err == nil || strings.Count(err.Error(), "rule ") != 2 {
		t.Errorf("Check = %v, want both rules named", err)
	}
}
