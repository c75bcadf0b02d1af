package core

import (
	"testing"

	"github.com/toolnexus/wasm/core/wire"
)

// The stream decoders of core/wire name their deltas with core's event
// types; streamEvent copies the type as it is.
func TestDeltaTypesAreEventTypes(t *testing.T) {
	for _, tt := range []struct{ delta, event string }{
		{wire.DeltaText, EventText},
		{wire.DeltaToolCall, EventToolCallDelta},
	} {
		if tt.delta != tt.event {
			t.Errorf("wire delta type %q, core event type %q", tt.delta, tt.event)
		}
	}
}

// max_tokens among RequestParams replaces the body's own.
func TestWireParamsMaxTokens(t *testing.T) {
	p := wireParams(&ClientOptions{Model: "m", MaxTokens: 9, RequestParams: map[string]any{"max_tokens": 5}})
	if !p.MaxTokensInParams || p.MaxTokens != 9 || p.Model != "m" {
		t.Fatalf("params = %+v", *p)
	}
	if p := wireParams(&ClientOptions{}); p.MaxTokensInParams {
		t.Fatalf("no RequestParams: params = %+v", *p)
	}
}
