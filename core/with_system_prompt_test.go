package core

import (
	"context"
	"strings"
	"testing"
)

// WithSystemPrompt sends its own prompt, leaves the original client's
// alone, and counts its runs in the same metrics.
func TestWithSystemPromptSharesAllButThePrompt(t *testing.T) {
	m := newScripted(t, StyleOpenAI, turn{Text: "one"}, turn{Text: "two"})
	base := m.client(ClientOptions{SystemPrompt: "base"})
	other := base.WithSystemPrompt("per user")
	tk := mustToolkit(t)
	if _, err := other.Run(context.Background(), "hi", tk); err != nil {
		t.Fatal(err)
	}
	if _, err := base.Run(context.Background(), "hi", tk); err != nil {
		t.Fatal(err)
	}
	sent := m.sent()
	for i, want := range []string{"per user", "base"} {
		if got := sent[i].Body.Get("messages.0.content").String(); got != want {
			t.Errorf("request %d: system = %q, want %q", i+1, got, want)
		}
	}
	if base.Metrics() != other.Metrics() {
		t.Errorf("metrics differ:\n%s\n---\n%s", base.Metrics(), other.Metrics())
	}
	if !strings.Contains(base.Metrics(), `toolnexus_llm_requests_total{model="test-model",status="200"} 2`) {
		t.Errorf("two runs not counted in the shared metrics:\n%s", base.Metrics())
	}
}
