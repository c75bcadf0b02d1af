package jsonx

import (
	"bytes"
	"encoding/json"
	"testing"
)

// stdJSON is encoding/json without HTML escaping: the reference output.
func stdJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func TestMatchesEncodingJSON(t *testing.T) {
	values := []any{
		nil, true, false, "", "plain <b>&", "quote\" back\\ nl\n cr\r tab\t ctl\x01\x1f del\x7f",
		"é 😀 \u2028\u2029", "bad \xff utf8 \xe2\x82", 0.0, 1.0, -2.5, 0.1, 123456789.0, 1e20, 1e21, 1e-6, 1e-7, 42,
		map[string]any{"b": 1.0, "a": []any{"x", map[string]any{}, nil}, "c": map[string]any{"z": true}},
		[]any{}, map[string]any{},
		json.RawMessage(`{"kept":  "as is"}`),
		struct {
			A string `json:"a"`
			B []int  `json:"b,omitempty"`
		}{A: "x"},
		[]string{"a"}, map[string]string{"k": "v"},
		json.RawMessage(nil),
		struct {
			R json.RawMessage `json:"r"`
			S json.RawMessage `json:"s,omitempty"`
		}{},
		embedOuter{embedInner: embedInner{A: "in", B: "shadowed"}, B: "out", C: 1},
		embedPtr{},
		embedPtr{embedInner: &embedInner{A: "p"}},
		struct {
			embedInner
			embedTwin
			embedThird
		}{embedInner{A: "x"}, embedTwin{D: "d"}, embedThird{D: "e", E: 2}},
	}
	for _, v := range values {
		got, err := Marshal(v)
		if err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		want := stdJSON(v)
		if raw, ok := v.(json.RawMessage); ok && raw != nil {
			want = string(v.(json.RawMessage)) // Append keeps raw bytes verbatim
		}
		if string(got) != want {
			t.Errorf("%#v:\n got %s\nwant %s", v, got, want)
		}
	}
}

type embedInner struct {
	A string `json:"a"`
	B string `json:"b,omitempty"`
}

type embedTwin struct{ D string }

type embedThird struct {
	D string
	E int `json:"e"`
}

type embedOuter struct {
	embedInner
	B string `json:"b"`
	C int    `json:"c"`
}

type embedPtr struct {
	*embedInner
	X bool `json:"x"`
}

func TestErrors(t *testing.T) {
	for _, v := range []any{func() {}, make(chan int), map[string]any{"x": func() {}}} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("%T must fail", v)
		}
	}
}

func BenchmarkAppendString(b *testing.B) {
	s := "a tool result with some \"quotes\" and a newline\n and unicode é"
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = AppendString(buf[:0], s)
	}
}
