//go:build !js

package toolnexus_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tidwall/gjson"
	core "github.com/toolnexus/wasm/toolnexus"
)

// TestSeedDeclinedRelayFinishes is the seed's second example over a real
// socket and the native transport: a relayed refund halts durably, is
// declined, and the run still finishes with the model's reply.
func TestSeedDeclinedRelayFinishes(t *testing.T) {
	var turn atomic.Int32
	var sawReason atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "bad request: "+r.URL.Path, 400)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if turn.Add(1) == 1 {
			_, _ = w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"refund","arguments":"{}"}}]}}],"usage":{"prompt_tokens":2,"completion_tokens":2,"total_tokens":4}}`))
			return
		}
		for _, m := range gjson.GetBytes(body, "messages").Array() {
			if m.Get("role").String() == "tool" && strings.Contains(m.Get("content").String(), "amount exceeds refund policy") {
				sawReason.Store(true)
			}
		}
		_, _ = w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"understood, no refund issued"}}],"usage":{"prompt_tokens":2,"completion_tokens":1,"total_tokens":3}}`))
	}))
	defer srv.Close()

	refund := core.RelayTool("refund", "issue a refund", nil)
	tk, err := core.CreateToolkit(context.Background(), core.Options{Builtins: false, ExtraTools: []core.Tool{refund}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	client := core.CreateClient(core.ClientOptions{BaseURL: srv.URL, Style: core.StyleOpenAI, Model: "stub", APIKey: "k"})

	halted, err := client.Run(context.Background(), "refund the customer", tk)
	if err != nil {
		t.Fatal(err)
	}
	if halted.Status != "pending" || halted.Pending == nil {
		t.Fatalf("expected a durable halt, got %q", halted.Status)
	}
	calls := core.RelayCallsOf(halted.Pending)
	if len(calls) != 1 || calls[0].ID != "c1" || calls[0].Name != "refund" {
		t.Fatalf("relay calls = %+v", calls)
	}
	resumed, err := client.RunWithAnswer(context.Background(), tk, halted.Messages, *halted.Pending,
		core.AnswerDeclined(halted.Pending.ID, "amount exceeds refund policy"))
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Status != "done" || !strings.Contains(resumed.Text, "no refund") {
		t.Fatalf("unexpected: %+v", resumed)
	}
	if !sawReason.Load() {
		t.Fatal("the model never saw the decline reason")
	}
	if resumed.Usage.TotalTokens != 3 || resumed.Turns != 1 {
		t.Fatalf("usage/turns of the resumed run = %+v / %d", resumed.Usage, resumed.Turns)
	}
}
