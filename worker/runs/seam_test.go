package runs

import (
	"context"
	"errors"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/worker"
)

// TestSeamStartsAndAnswersOnce: a product's run (Start) halts like POST
// /v1/runs's, keeps the product's data in its meta, and its request takes
// one answer (Answer): an edit the tool's schema refuses records nothing,
// the first fitting answer wins, a second is not Won and reads the first.
func TestSeamStartsAndAnswersOnce(t *testing.T) {
	hs := newHarness(t, nil)
	wh := hs.Handler.(*worker.Handler)
	ctx := context.Background()
	id, err := Start(wh, ctx, Begin{Origin: "https://agent.example", Prompt: "refund order 42", Product: []byte(`{"a2a":{"contextId":"ctx_1"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	st := hs.waitRun(id, "pending")
	p := st["pending"].(map[string]any)
	rec, _, _ := wh.Options().Runs().Get(ctx, id, "")
	if got := gjson.GetBytes(rec.Meta, "product.a2a.contextId").String(); got != "ctx_1" {
		t.Fatalf("meta = %s", rec.Meta)
	}
	req := p["id"].(string)
	_, err = Answer(wh, ctx, id, req, Decision{Ok: true, Args: map[string]any{"order": "forty-two"}}, "a2a")
	var refused *RefusedAnswer
	if !errors.As(err, &refused) || refused.Code != "invalid_args" {
		t.Fatalf("a bad edit = %v", err)
	}
	first, err := Answer(wh, ctx, id, req, Decision{Ok: true, Args: map[string]any{"order": 43.0}}, "a2a")
	if err != nil || !first.Won || gjson.GetBytes(first.Decision, "decision").String() != "edited" {
		t.Fatalf("first answer = %+v, %v", first, err)
	}
	second, err := Answer(wh, ctx, id, req, Decision{Ok: false, Reason: "too late"}, "a2a")
	if err != nil || second.Won || gjson.GetBytes(second.Decision, "decision").String() != "edited" {
		t.Fatalf("second answer = %+v, %v", second, err)
	}
	hs.waitRun(id, "done")
	if hs.refunds.Load() != 1 {
		t.Fatalf("refunds = %d", hs.refunds.Load())
	}
	if other, err := Answer(wh, ctx, id, "req_none", Decision{Ok: true}, "a2a"); err != nil || other.Won || other.Decision != nil {
		t.Fatalf("an answer to no request = %+v, %v", other, err)
	}
}
