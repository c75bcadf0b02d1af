package fmtx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

type named string
type count int
type stringer struct{ s string }

func (s stringer) String() string { return "S:" + s.s }

type nilErr struct{ msg *string }

func (e *nilErr) Error() string { return *e.msg }

// TestFormatsAsFmtDoes holds fmtx to fmt on every verb and operand the
// wasm path's messages use.
func TestFormatsAsFmtDoes(t *testing.T) {
	err := errors.New("boom")
	var nilPtr *nilErr
	cases := []struct {
		format string
		args   []any
	}{
		{"plain text", nil},
		{"100%% sure", nil},
		{"%s and %s", []any{"a", named("b")}},
		{"%q", []any{"say \"hi\"\n"}},
		{"%q", []any{named("x")}},
		{"%q", []any{[]byte("bytes")}},
		{"%q", []any{'é'}},
		{"%s", []any{[]byte("bytes")}},
		{"%v", []any{[]byte{1, 2, 3}}},
		{"%s %v %q", []any{json.RawMessage(`{"a":1}`), json.RawMessage(`[1]`), json.RawMessage(`"x"`)}},
		{"%d items, %d left, %d %d %d", []any{3, int64(-7), uint(8), uint64(1 << 40), count(5)}},
		{"%v %v %v", []any{true, 2.5, float32(0.1)}},
		{"%v %v %v %v", []any{1e6, 1e20, 1e-5, 123456.0}},
		{"%.0f of %.2f, %f, %g", []any{41.6, 3.14159, 2.5, 1e-7}},
		{"%v", []any{nil}},
		{"%T %T %T %T", []any{nil, "s", map[string]any{}, []any{}}},
		{"tool %q failed: %v", []any{"t", err}},
		{"%s", []any{err}},
		{"%q", []any{err}},
		{"%v", []any{stringer{"x"}}},
		{"%s", []any{stringer{"y"}}},
		{"%v", []any{context.Canceled}},
		{"%v", []any{nilPtr}},
		{"%v", []any{2 * time.Second}},
		{"missing %s and %d", []any{"one"}},
		{"extra", []any{"x", 2}},
		{"%d", []any{"not a number"}},
		{"ünïcödé %s ✓", []any{"ok"}},
		{"%s %s\n# TYPE %s counter\n", []any{"m", "help", "m"}},
	}
	for _, c := range cases {
		want := fmt.Sprintf(c.format, c.args...)
		if got := Sprintf(c.format, c.args...); got != want {
			t.Errorf("Sprintf(%q, %#v) = %q, fmt gives %q", c.format, c.args, got, want)
		}
		if got := string(Appendf([]byte("> "), c.format, c.args...)); got != "> "+want {
			t.Errorf("Appendf(%q) = %q, want %q", c.format, got, "> "+want)
		}
		var sb strings.Builder
		if n, err := Fprintf(&sb, c.format, c.args...); err != nil || n != len(want) || sb.String() != want {
			t.Errorf("Fprintf(%q) = %q (%d, %v), want %q", c.format, sb.String(), n, err, want)
		}
	}
}

func TestSprintSpacesAsFmtDoes(t *testing.T) {
	for _, args := range [][]any{
		{"a", "b"}, {1, 2}, {"a", 1, 2, "b"}, {errors.New("e"), 3}, {nil}, {}, {"x", nil, 1},
	} {
		if got, want := Sprint(args...), fmt.Sprint(args...); got != want {
			t.Errorf("Sprint(%#v) = %q, fmt gives %q", args, got, want)
		}
		var sb strings.Builder
		Fprint(&sb, args...)
		if got, want := sb.String(), fmt.Sprint(args...); got != want {
			t.Errorf("Fprint(%#v) = %q, want %q", args, got, want)
		}
	}
}

func TestErrorfWrapsAsFmtDoes(t *testing.T) {
	base := context.DeadlineExceeded
	other := io.EOF
	cases := []struct {
		format string
		args   []any
		is     []error
	}{
		{"core: model request: %w", []any{base}, []error{base}},
		{"tool %q: %w", []any{"t", other}, []error{other}},
		{"both: %w and %w", []any{base, other}, []error{base, other}},
		{"no wrap: %v", []any{base}, nil},
		{"not an error: %w", []any{"text"}, nil},
		{"plain", nil, nil},
	}
	for _, c := range cases {
		got, want := Errorf(c.format, c.args...), fmt.Errorf(c.format, c.args...)
		if got.Error() != want.Error() {
			t.Errorf("Errorf(%q) = %q, fmt gives %q", c.format, got, want)
		}
		for _, target := range []error{base, other} {
			wantIs := errors.Is(want, target)
			if errors.Is(got, target) != wantIs {
				t.Errorf("Errorf(%q): errors.Is(%v) = %v, fmt gives %v", c.format, target, !wantIs, wantIs)
			}
		}
		if (errors.Unwrap(got) == nil) != (errors.Unwrap(want) == nil) {
			t.Errorf("Errorf(%q): Unwrap differs from fmt", c.format)
		}
	}
	var target *nilErr
	msg := "x"
	if err := Errorf("wrapped: %w", &nilErr{&msg}); !errors.As(err, &target) || *target.msg != "x" {
		t.Errorf("errors.As does not see through Errorf: %v", err)
	}
}

// TestValuesFmtxDoesNotFormat names the one difference: a map, a struct or a
// pointer without an Error or String method prints as its type.
func TestValuesFmtxDoesNotFormat(t *testing.T) {
	if got := Sprintf("panic: %v", map[string]int{"a": 1}); got != "panic: %!v(map[string]int)" {
		t.Errorf("got %q", got)
	}
	if got := Sprintf("%v", struct{ A int }{1}); got != "%!v(struct { A int })" {
		t.Errorf("got %q", got)
	}
}
