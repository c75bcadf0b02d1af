package jsonx

import "testing"

func TestText(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, ""},
		{"plain <b>", "plain <b>"},
		{map[string]any{"a": 1.0}, `{"a":1}`},
		{[]any{"x", true}, `["x",true]`},
		{make(chan int), "null"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
