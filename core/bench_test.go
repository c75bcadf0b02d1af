package core_test

// BenchmarkLoop is issue 7's loop scenario through core alone, with an
// in-memory Transport (no sockets): turns 1–9 call the tool add {"a":1,"b":2},
// which returns "3", and turn 10 answers "done". Run it with
//
//	go test -run '^$' -bench BenchmarkLoop -benchmem ./core
//
// It reports ns/turn and allocs/turn next to Go's per-run numbers.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
)

const benchTurns = 10

// benchModel answers from precomputed replies by its count of calls in the
// current run; reset starts a new run.
type benchModel struct {
	replies [][]byte
	calls   int
}

func newBenchModel() *benchModel {
	m := &benchModel{}
	for i := 1; i < benchTurns; i++ {
		m.replies = append(m.replies, []byte(`{"id":"chatcmpl-`+strconv.Itoa(i)+`","object":"chat.completion","model":"fake-model",`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_`+strconv.Itoa(i)+
			`","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]},"finish_reason":"tool_calls"}],`+
			`"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`))
	}
	m.replies = append(m.replies, []byte(`{"id":"chatcmpl-10","object":"chat.completion","model":"fake-model",`+
		`"choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}],`+
		`"usage":{"prompt_tokens":10,"completion_tokens":1,"total_tokens":11}}`))
	return m
}

// CopiesRequestBody: the model keeps nothing of a request, as the JS
// bridge's fetch transport (core.Transport).
func (m *benchModel) CopiesRequestBody() {}

func (m *benchModel) Do(_ context.Context, _ *core.HTTPRequest) (*core.HTTPResponse, error) {
	if m.calls >= len(m.replies) {
		return nil, fmt.Errorf("benchModel: call %d beyond the script", m.calls+1)
	}
	body := m.replies[m.calls]
	m.calls++
	return &core.HTTPResponse{Status: 200, Header: map[string]string{"content-type": "application/json"},
		Body: io.NopCloser(bytes.NewReader(body))}, nil
}

// benchHistory is n prior messages alternating user/assistant, 500
// characters of content each, pre-encoded as a host would keep them.
func benchHistory(n int) []any {
	out := make([]any, n)
	for i := range out {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		content := strings.Repeat(string(rune('a'+i%26)), 500)
		out[i] = json.RawMessage(`{"role":"` + role + `","content":"` + content + `"}`)
	}
	return out
}

func BenchmarkLoop(b *testing.B) {
	for _, n := range []int{0, 200} {
		b.Run(fmt.Sprintf("history=%d", n), func(b *testing.B) { benchLoop(b, benchHistory(n)) })
	}
}

func benchLoop(b *testing.B, history []any) {
	ctx := context.Background()
	executed := 0
	add := core.NativeTool("add", "add two numbers", core.JSONSchema{
		"type":       "object",
		"properties": map[string]any{"a": map[string]any{"type": "number"}, "b": map[string]any{"type": "number"}},
		"required":   []any{"a", "b"},
	}, func(_ context.Context, args map[string]any) (string, error) {
		executed++
		return strconv.FormatFloat(args["a"].(float64)+args["b"].(float64), 'f', -1, 64), nil
	})
	tk, err := core.CreateToolkit(ctx, core.Options{Builtins: false, ExtraTools: []core.Tool{add}})
	if err != nil {
		b.Fatal(err)
	}
	model := newBenchModel()
	client := core.CreateClient(core.ClientOptions{BaseURL: "https://model.invalid/v1", Model: "fake-model",
		APIKey: "bench-key", MaxTurns: 20, Transport: model})
	runOnce := func() {
		model.calls, executed = 0, 0
		res, err := client.RunWithHistory(ctx, "add 1 and 2, nine times", tk, history)
		if err != nil {
			b.Fatal(err)
		}
		// A benchmark of a broken loop is worse than none.
		if res.Text != "done" || res.Status != core.StatusDone || model.calls != benchTurns || executed != benchTurns-1 ||
			res.ToolCallCount != benchTurns-1 || len(res.Messages) != len(history)+1+2*(benchTurns-1)+1 {
			b.Fatalf("broken loop: text %q status %s, %d model calls, %d tool runs, %d messages",
				res.Text, res.Status, model.calls, executed, len(res.Messages))
		}
	}
	runOnce()
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runOnce()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	turns := float64(b.N * benchTurns)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/turns, "ns/turn")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/turns, "allocs/turn")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/turns, "B/turn")
}
