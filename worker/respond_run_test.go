package worker

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// TestRunResponseEncoding: the hand-written encoder of a run's answer
// writes what jsonx writes by reflection from the struct tags, compacted,
// for a zero answer, one with empty lists and one with every field set (by
// reflection, so that a field added to RunResponse, core.RunResult or
// core.ToolCall and not to the encoder fails here).
func TestRunResponseEncoding(t *testing.T) {
	var full RunResponse
	fill(reflect.ValueOf(&full).Elem(), 0)
	full.Messages = []any{json.RawMessage(`{"role": "user", "content": "add 2 and 3"}`), map[string]any{"role": "tool", "content": "5"}}
	full.ToolCalls = append(full.ToolCalls, core.ToolCall{ID: "call_2", Name: "add", RawArgs: json.RawMessage(`{"a": 2}`), Output: "5"})
	for _, tt := range []struct {
		name string
		out  RunResponse
	}{
		{"zero", RunResponse{}},
		{"empty lists", RunResponse{RunResult: core.RunResult{Messages: []any{}, ToolCalls: []core.ToolCall{}, Status: "done"}}},
		{"every field", full},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, err := jsonx.Marshal(tt.out)
			if err != nil {
				t.Fatal(err)
			}
			got, err := appendRunResponse(nil, tt.out)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(compactJSON(want)) {
				t.Errorf("appendRunResponse:\n%s\njsonx:\n%s", got, compactJSON(want))
			}
		})
	}
}

// fill sets every settable field of v, recursively, to a value that is not
// its zero (JSON text where the type holds JSON text).
func fill(v reflect.Value, depth int) {
	if depth > 4 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x \"y\"")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{"k": [1, 2]}`))
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String {
			m := reflect.MakeMap(v.Type())
			e := reflect.New(v.Type().Elem()).Elem()
			if e.Kind() == reflect.Interface {
				e.Set(reflect.ValueOf("v"))
			} else {
				fill(e, depth+1)
			}
			m.SetMapIndex(reflect.ValueOf("k"), e)
			v.Set(m)
		}
	case reflect.Interface:
		v.Set(reflect.ValueOf("v"))
	}
}
