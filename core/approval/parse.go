package approval

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Limits of a rule list: rules are read before every call, and a list
// comes from settings a mistake can make huge.
const (
	MaxRules     = 200       // rules in a list
	MaxConds     = 16        // conditions of one rule
	MaxOneOf     = 100       // values of a oneOf
	MaxRulesText = 256 << 10 // bytes of a list's JSON text
	maxText      = 1000      // bytes of a name, a reason, a string value
	maxPathParts = 16        // parts of a condition's path
)

// Sources are the tool sources a rule may name.
var Sources = []string{"js", "http", "mcp", "a2a", "builtin", "native", "relay", "skill", "custom"}

// Problems is every problem of a rule list, each naming its rule ("rule
// 2: \"decision\" must be allow, deny or ask"), so that one answer (or one
// log line) lists them all.
type Problems []string

func (p Problems) Error() string { return "approval rules: " + strings.Join(p, "; ") }

// Parse reads a rule list from JSON: an array of rules in Rule's JSON
// shape. It reports every problem of the list at once (Problems); a list
// with any problem is refused whole, since a half-read policy could allow
// what its author meant to stop.
func Parse(text []byte) ([]Rule, error) {
	if len(text) > MaxRulesText {
		return nil, Problems{"the list is " + strconv.Itoa(len(text)) + " bytes; at most " + strconv.Itoa(MaxRulesText) + " are allowed"}
	}
	if err := jsonx.CheckDepth(text, 8); err != nil || !gjson.ValidBytes(text) {
		return nil, Problems{`the list is not valid JSON (want an array of rules: [{"tool", "when", "decision", "reason"}])`}
	}
	doc := gjson.ParseBytes(text)
	if !doc.IsArray() {
		return nil, Problems{`the list must be a JSON array of rules: [{"tool", "when", "decision", "reason"}]`}
	}
	items := doc.Array()
	if len(items) > MaxRules {
		return nil, Problems{"the list has " + strconv.Itoa(len(items)) + " rules; at most " + strconv.Itoa(MaxRules) + " are allowed"}
	}
	var problems Problems
	out := make([]Rule, len(items))
	for i, v := range items {
		where := "rule " + strconv.Itoa(i+1)
		r, err := readRule(v)
		if err != nil {
			problems = append(problems, where+": "+err.Error())
			continue
		}
		out[i] = r
		problems = append(problems, checkRule(out, i)...)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return out, nil
}

// Check reports every problem of a list built in Go, as Parse does; it
// also reads Go numbers in conditions as JSON numbers.
func Check(rules []Rule) error {
	if len(rules) > MaxRules {
		return Problems{"the list has " + strconv.Itoa(len(rules)) + " rules; at most " + strconv.Itoa(MaxRules) + " are allowed"}
	}
	var problems Problems
	for i := range rules {
		problems = append(problems, checkRule(rules, i)...)
	}
	if len(problems) > 0 {
		return problems
	}
	return nil
}

func readRule(v gjson.Result) (Rule, error) {
	var r Rule
	var decision string
	if !v.IsObject() {
		return r, &jsonx.FieldError{Problem: "must be an object"}
	}
	err := jsonx.ReadObject(v, "", true,
		jsonx.Field{Name: "name", Read: jsonx.String(&r.Name)},
		jsonx.Field{Name: "tool", Read: jsonx.String(&r.Tool)},
		jsonx.Field{Name: "source", Read: jsonx.String(&r.Source)},
		jsonx.Field{Name: "server", Read: jsonx.String(&r.Server)},
		jsonx.Field{Name: "agent", Read: jsonx.String(&r.Agent)},
		jsonx.Field{Name: "when", Read: conds(&r.When)},
		jsonx.Field{Name: "decision", Read: jsonx.String(&decision)},
		jsonx.Field{Name: "reason", Read: jsonx.String(&r.Reason)},
	)
	r.Decision = Decision(decision)
	return r, err
}

func conds(dst *[]Cond) jsonx.Reader {
	return func(v gjson.Result, p string) error {
		if !v.IsArray() {
			return &jsonx.FieldError{Path: p, Problem: `must be an array of conditions: [{"path", "op", "value"}]`}
		}
		var err error
		i := 0
		v.ForEach(func(_, c gjson.Result) bool {
			var cond Cond
			at := p + "." + strconv.Itoa(i)
			if !c.IsObject() {
				err = &jsonx.FieldError{Path: at, Problem: `must be a condition: {"path", "op", "value"}`}
				return false
			}
			err = jsonx.ReadObject(c, at, true,
				jsonx.Field{Name: "path", Read: jsonx.String(&cond.Path)},
				jsonx.Field{Name: "op", Read: jsonx.String(&cond.Op)},
				jsonx.Field{Name: "value", Read: func(v gjson.Result, _ string) error { cond.Value = v.Value(); return nil }})
			*dst = append(*dst, cond)
			i++
			return err == nil
		})
		return err
	}
}

// checkRule lists the problems of rules[i]; it reads the Go numbers of
// its conditions as JSON numbers (float64) in place.
func checkRule(rules []Rule, i int) Problems {
	r := &rules[i]
	where := "rule " + strconv.Itoa(i+1)
	if r.Name != "" {
		where += " (" + strconv.Quote(clip(r.Name)) + ")"
	}
	var out Problems
	bad := func(s string) { out = append(out, where+": "+s) }
	if r.Func == nil {
		switch r.Decision {
		case Allow, Deny, Ask:
		case "":
			bad(`"decision" is required: allow, deny or ask`)
		default:
			bad(`"decision" must be allow, deny or ask, not ` + strconv.Quote(clip(string(r.Decision))))
		}
	}
	for _, s := range []struct{ name, v string }{{"name", r.Name}, {"tool", r.Tool}, {"server", r.Server}, {"agent", r.Agent}, {"reason", r.Reason}} {
		if len(s.v) > maxText {
			bad(`"` + s.name + `" is longer than ` + strconv.Itoa(maxText) + " bytes")
		}
	}
	if t := strings.TrimSuffix(r.Tool, "*"); strings.Contains(t, "*") {
		bad(`"tool" may hold "*" only at its end ("delete_*")`)
	}
	if r.Source != "" && !known(r.Source) {
		bad(`"source" must be one of ` + strings.Join(Sources, ", ") + ", not " + strconv.Quote(clip(r.Source)))
	}
	if r.Agent != "" {
		for _, n := range strings.Split(r.Agent, "/") {
			if n == "" {
				bad(`"agent" must be an agent's name, or names joined by "/" ("support/billing")`)
				break
			}
		}
	}
	if len(r.When) > MaxConds {
		bad(`"when" has ` + strconv.Itoa(len(r.When)) + " conditions; at most " + strconv.Itoa(MaxConds) + " are allowed")
	}
	for j := range r.When {
		if msg := checkCond(&r.When[j]); msg != "" {
			bad("condition " + strconv.Itoa(j+1) + ": " + msg)
		}
	}
	return out
}

// checkCond says what is wrong with c ("" when nothing), and reads a Go
// number value as a JSON one.
func checkCond(c *Cond) string {
	parts := strings.Split(c.Path, ".")
	switch {
	case c.Path == "":
		return `"path" is required: the argument it looks at ("amount", "customer.tier")`
	case len(c.Path) > maxText || len(parts) > maxPathParts:
		return `"path" is too long`
	}
	for _, p := range parts {
		if p == "" {
			return `"path" ` + strconv.Quote(clip(c.Path)) + ` has an empty part: write keys joined by single dots`
		}
	}
	switch c.Op {
	case "==", "!=":
		if !scalar(&c.Value) {
			return `"value" of ` + c.Op + " must be a string, a number, true, false or null"
		}
	case "<", "<=", ">", ">=":
		f, ok := number(c.Value)
		if _, isText := c.Value.(string); !ok || isText {
			return `"value" of ` + c.Op + " must be a number"
		}
		c.Value = f
	case "startsWith":
		s, ok := c.Value.(string)
		if !ok || s == "" {
			return `"value" of startsWith must be a non-empty string`
		}
		if len(s) > maxText {
			return `"value" is longer than ` + strconv.Itoa(maxText) + " bytes"
		}
	case "oneOf":
		list, ok := c.Value.([]any)
		switch {
		case !ok:
			if s, isStrings := c.Value.([]string); isStrings {
				list = make([]any, len(s))
				for i, v := range s {
					list[i] = v
				}
				c.Value = list
				break
			}
			return `"value" of oneOf must be a list`
		case len(list) > MaxOneOf:
			return `"value" of oneOf has more than ` + strconv.Itoa(MaxOneOf) + " values"
		}
		for i := range list {
			if !scalar(&list[i]) {
				return `"value" of oneOf must list strings, numbers, true, false or null`
			}
		}
	case "":
		return `"op" is required: ==, !=, <, <=, >, >=, startsWith or oneOf`
	default:
		return `"op" must be ==, !=, <, <=, >, >=, startsWith or oneOf, not ` + strconv.Quote(clip(c.Op))
	}
	return ""
}

// scalar reports whether *v is a JSON scalar, reading a Go number as a
// JSON one in place.
func scalar(v *any) bool {
	switch s := (*v).(type) {
	case nil, bool:
		return true
	case string:
		return len(s) <= maxText
	}
	if f, ok := number(*v); ok {
		*v = f
		return true
	}
	return false
}

func known(source string) bool {
	for _, s := range Sources {
		if s == source {
			return true
		}
	}
	return false
}

// clip shortens a value quoted in a problem.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
