package approval

import (
	"strings"
	"testing"
)

// FuzzParse: any bytes as a rule list are a clear error or rules that
// decide any call without a panic; any bytes as a record are an error
// naming a line, or entries Verify judges.
func FuzzParse(f *testing.F) {
	f.Add([]byte(rulesOfASupportTeam), []byte(`{"amount": 20, "customer": {"tier": "gold"}}`))
	f.Add([]byte(`[{"tool":"*","when":[{"path":"a.0.b","op":"oneOf","value":[1,"1",null,true]}],"decision":"deny"}]`), []byte(`{"a":[{"b":"1"}]}`))
	f.Add([]byte(`[{"when":[{"path":"p","op":"startsWith","value":"x/"}],"decision":"allow"}]`), []byte(`{"p":"x/../../y"}`))
	f.Add([]byte(strings.Repeat("[", 100)), []byte(`{}`))
	f.Add([]byte(`[{"decision":"ask","when":[{"path":"","op":"<","value":"NaN"}]}]`), []byte(`{"":1}`))
	f.Fuzz(func(t *testing.T, rules, args []byte) {
		list, err := Parse(rules)
		if err != nil {
			if _, ok := err.(Problems); !ok || err.Error() == "" {
				t.Fatalf("Parse error %T %q", err, err)
			}
			return
		}
		a, _ := decodeArgs(args)
		Decide(list, Call{Tool: "refund", Source: "js", Args: a, Path: []string{"support", "billing"}})
		entries, err := ParseJSONL(args)
		if err == nil {
			_ = Verify(entries, "")
		}
	})
}
