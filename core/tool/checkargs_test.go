package tool

import (
	"strings"
	"testing"
)

func TestCheckArgs(t *testing.T) {
	schema := JSONSchema{
		"type":                 "object",
		"required":             []any{"n"},
		"additionalProperties": false,
		"properties": map[string]any{
			"n":    map[string]any{"type": "integer"},
			"mode": map[string]any{"type": "string", "enum": []any{"fast", "slow"}},
			"tags": map[string]any{"type": []any{"array", "null"}},
		},
	}
	tests := []struct {
		args map[string]any
		want string // "" means valid
	}{
		{map[string]any{"n": 3.0}, ""},
		{map[string]any{"n": 3.0, "mode": "fast", "tags": nil}, ""},
		{map[string]any{"n": 3.5}, `"n" must be integer`},
		{map[string]any{"n": 1.0, "mode": "warp"}, `"mode" must be one of`},
		{map[string]any{"n": 1.0, "extra": true}, `unexpected property "extra"`},
		{map[string]any{"tags": "x"}, `missing required "n"`},
	}
	for _, tt := range tests {
		err := CheckArgs(schema, tt.args)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CheckArgs(%v) = %v, want %q", tt.args, err, tt.want)
		}
	}
}
