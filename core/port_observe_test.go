package core

import (
	"context"
	"testing"
)

// TestIssue17RunResultModel: RunResult.Model is the model the run asked for,
// as in the Go port, even when the provider names another one; that one is
// kept in ProviderModel.
func TestIssue17RunResultModel(t *testing.T) {
	for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
		t.Run(string(style), func(t *testing.T) {
			m := newScripted(t, style, turn{text: "hello"})
			res, err := m.client(ClientOptions{Model: "asked-model"}).Run(context.Background(), "hi", mustToolkit(t))
			if err != nil {
				t.Fatal(err)
			}
			if res.Model != "asked-model" {
				t.Errorf("Model = %q, want the one sent, %q", res.Model, "asked-model")
			}
			if res.ProviderModel != "served-model" {
				t.Errorf("ProviderModel = %q, want the provider's, %q", res.ProviderModel, "served-model")
			}
		})
	}
}
