package toolnexus

import (
	"context"
	"strings"
	"testing"
)

func TestLLMStatusWord(t *testing.T) {
	for status, want := range map[string]string{
		"200": "ok", "204": "ok", "ok": "ok",
		"429": "error", "500": "error", "error": "error", "cancelled": "error", "": "error",
	} {
		if got := llmStatusWord(status); got != want {
			t.Errorf("llmStatusWord(%q) = %q, want %q", status, got, want)
		}
	}
}

func TestInProcessClientRunsButRefusesToStream(t *testing.T) {
	var statuses []string
	c := CreateInProcessClient(InProcessOptions{Model: "m",
		Generate: func(InProcessRequest) (InProcessResponse, error) { return InProcessResponse{Content: "hi"}, nil },
		OnMetric: func(e MetricEvent) {
			if e.Event == "llm" {
				statuses = append(statuses, e.Status)
			}
		}})
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	res, err := c.Run(context.Background(), "hello", tk)
	if err != nil || res.Text != "hi" {
		t.Fatalf("run: %+v %v", res, err)
	}
	ch, err := c.Stream(context.Background(), "hello", tk)
	if err != nil {
		t.Fatal(err)
	}
	refused := false
	for ev := range ch {
		if ev.Type == EventText {
			t.Fatal("a text delta: the stream was imitated")
		}
		refused = refused || (ev.Err != nil && strings.Contains(ev.Err.Error(), errInProcessStream.Error()))
	}
	if !refused {
		t.Fatal("the stream did not end with the refusal")
	}
	if len(statuses) != 2 || statuses[0] != "ok" || statuses[1] != "error" {
		t.Fatalf("llm statuses %q, want [ok error]", statuses)
	}
}
