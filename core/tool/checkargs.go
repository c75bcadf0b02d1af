package tool

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sort"
	"strings"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// Checking edited arguments: an approval may carry edited arguments, which
// core checks against the tool's schema before the tool runs.

// CheckArgs checks args against the parts of a JSON Schema that catch a
// mistyped edit: required keys, the primitive type of each declared property,
// enums, and additionalProperties:false. It is not a full validator on purpose:
// a full one would cost wasm size for checks the model's provider already does.
func CheckArgs(schema JSONSchema, args map[string]any) error {
	if schema == nil {
		return nil
	}
	var problems []string
	for _, key := range stringList(schema["required"]) {
		if _, ok := args[key]; !ok {
			problems = append(problems, fmt.Sprintf("missing required %q", key))
		}
	}
	props, _ := schema["properties"].(map[string]any)
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p, declared := props[k].(map[string]any)
		if !declared {
			if ap, ok := schema["additionalProperties"].(bool); ok && !ap {
				problems = append(problems, fmt.Sprintf("unexpected property %q", k))
			}
			continue
		}
		if want := stringList(p["type"]); len(want) > 0 && !typeMatches(args[k], want) {
			problems = append(problems, fmt.Sprintf("%q must be %s", k, strings.Join(want, " or ")))
		}
		if enum, ok := p["enum"].([]any); ok && !inEnum(args[k], enum) {
			problems = append(problems, fmt.Sprintf("%q must be one of %s", k, text(enum)))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

func typeMatches(v any, want []string) bool {
	for _, w := range want {
		switch w {
		case "string":
			if _, ok := v.(string); ok {
				return true
			}
		case "number":
			if _, ok := v.(float64); ok {
				return true
			}
		case "integer":
			if f, ok := v.(float64); ok && f == float64(int64(f)) {
				return true
			}
		case "boolean":
			if _, ok := v.(bool); ok {
				return true
			}
		case "object":
			if _, ok := v.(map[string]any); ok {
				return true
			}
		case "array":
			if _, ok := v.([]any); ok {
				return true
			}
		case "null":
			if v == nil {
				return true
			}
		}
	}
	return false
}

func inEnum(v any, enum []any) bool {
	s := text(v)
	for _, e := range enum {
		if text(e) == s {
			return true
		}
	}
	return false
}

// stringList reads a schema value that is a string or a list of strings.
func stringList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []string:
		return t
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// text is v as compact JSON, for messages and comparisons.
func text(v any) string {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
