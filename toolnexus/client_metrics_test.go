package toolnexus

import (
	"context"
	"strings"
	"testing"
)

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
		refused = refused || (ev.Err != nil && strings.Contains(ev.Err.Error(), errNoStreaming.Error()))
	}
	if !refused {
		t.Fatal("the stream did not end with the refusal")
	}
	if len(statuses) != 2 || statuses[0] != "ok" || statuses[1] != "error" {
		t.Fatalf("llm statuses %q, want [ok error]", statuses)
	}
}
