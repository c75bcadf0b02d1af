package worker

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/toolnexus/wasm/core"
)

func TestDefaultTools(t *testing.T) {
	tk, err := core.CreateToolkit(context.Background(), core.Options{ExtraTools: DefaultTools(ToolEnv{})})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	tests := []struct {
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"add", map[string]any{"a": 2.5, "b": 3.0}, "5.5", false},
		{"add", map[string]any{"a": "2"}, "add: a and b must be numbers", true},
		{"refund", map[string]any{"order": 42.0}, "refunded order 42", false},
		{"refund", map[string]any{"order": 4.5}, "refund: order must be a positive integer", true},
	}
	for _, tt := range tests {
		res, err := tk.Execute(context.Background(), tt.tool, tt.args)
		if err != nil || res.Output != tt.want || res.IsError != tt.isError {
			t.Errorf("%s(%v) = %+v, %v; want %q (isError %v)", tt.tool, tt.args, res, err, tt.want, tt.isError)
		}
	}
	if refund, _ := tk.Get("refund"); !refund.NeedsApproval {
		t.Error("refund does not need approval")
	}
	if add, _ := tk.Get("add"); add.NeedsApproval {
		t.Error("add needs approval")
	}
}

// TestToolsGetTheirEnv: the tool set is built with the handler's transport
// and settings, so a tool can call out through the Worker's fetch.
func TestToolsGetTheirEnv(t *testing.T) {
	hs := newHarness(t, func(env map[string]string) { env["WEATHER_KEY"] = "w-key" })
	sentinel := &sentinelTransport{}
	hs.h.opts.Transport = sentinel
	var got ToolEnv
	hs.h.opts.Tools = func(env ToolEnv) []core.Tool {
		got = env
		return DefaultTools(env)
	}
	hs.Do("GET", "/v1/tools", "")
	if got.Getenv == nil || got.Getenv("WEATHER_KEY") != "w-key" || got.Transport != core.Transport(sentinel) {
		t.Fatalf("tool env = %+v", got)
	}
}

// sentinelTransport is a comparable Transport that is never called.
type sentinelTransport struct{}

func (*sentinelTransport) Do(context.Context, *core.HTTPRequest) (*core.HTTPResponse, error) {
	panic("sentinelTransport called")
}

// TestFormatNumber: add's whole-number fast path formats as
// strconv.FormatFloat(f, 'f', -1, 64) does.
func TestFormatNumber(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 5, -5, 2.5, 1e15, -(1 << 53) + 1, 1 << 53, 1e21, 0.1 + 0.2, math.MaxFloat64} {
		if got, want := formatNumber(f), strconv.FormatFloat(f, 'f', -1, 64); got != want {
			t.Errorf("formatNumber(%v) = %q, want %q", f, got, want)
		}
	}
}
