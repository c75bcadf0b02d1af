package a2aserve

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/worker"
)

// TestBadInputIsJSONRPCErrorAndNothingRuns: malformed JSON-RPC, an
// unknown method, an unknown task, params that do not fit, a body over
// 1 MiB or nested too deep are JSON-RPC errors with their codes, and no
// model call is made.
func TestBadInputIsJSONRPCErrorAndNothingRuns(t *testing.T) {
	hs := newHarness(t, nil)
	deep := strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)
	huge := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"text":"` + strings.Repeat("x", 1<<20) + `"}]}}}`
	for _, c := range []struct {
		name, body string
		headers    []string
		code       int
	}{
		{"not JSON", `{"jsonrpc":`, nil, a2a.CodeParseError},
		{"not an object", `[1,2]`, nil, a2a.CodeInvalidRequest},
		{"not 2.0", `{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"x"}}`, nil, a2a.CodeInvalidRequest},
		{"no method", `{"jsonrpc":"2.0","id":1,"params":{}}`, nil, a2a.CodeInvalidRequest},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{}}`, nil, a2a.CodeMethodNotFound},
		{"params not an object", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[1]}`, nil, a2a.CodeInvalidParams},
		{"too deep", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":` + deep + `}`, nil, a2a.CodeInvalidRequest},
		{"over 1 MiB", huge, nil, a2a.CodeInvalidRequest},
		{"unknown task", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"run_00000000000000000000000000000000"}}`, nil, a2a.CodeTaskNotFound},
		{"malformed task id", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"../../etc"}}`, nil, a2a.CodeTaskNotFound},
		{"no task id", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{}}`, nil, a2a.CodeInvalidParams},
		{"no message", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}`, nil, a2a.CodeInvalidParams},
		{"no parts", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"url":"https://x.example/a.png"}]}}}`, nil, a2a.CodeInvalidParams},
		{"taskId not a string", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"taskId":7,"parts":[{"text":"hi"}]}}}`, nil, a2a.CodeInvalidParams},
		{"answer to an unknown task", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"taskId":"run_00000000000000000000000000000000","parts":[{"text":"approve"}]}}}`, nil, a2a.CodeTaskNotFound},
		{"cancel an unknown task", `{"jsonrpc":"2.0","id":1,"method":"CancelTask","params":{"id":"run_00000000000000000000000000000000"}}`, nil, a2a.CodeTaskNotFound},
		{"list", `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}`, nil, a2a.CodeUnsupportedOperation},
		{"push", `{"jsonrpc":"2.0","id":1,"method":"CreateTaskPushNotificationConfig","params":{}}`, nil, a2a.CodePushNotSupported},
		{"extended card", `{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard","params":{}}`, nil, a2a.CodeExtendedCardNotConfigured},
		{"version 0.3", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}`, []string{"A2A-Version", "0.3"}, a2a.CodeVersionNotSupported},
	} {
		rec := hs.Do("POST", RPCRoute, c.body, c.headers...)
		res := gjson.Parse(rec.Body.String())
		if rec.Code != http.StatusOK || rpcError(res) != c.code || res.Get("error.message").String() == "" {
			t.Errorf("%s = %d %.300s, want JSON-RPC error %d", c.name, rec.Code, rec.Body, c.code)
		}
	}
	if rec := hs.Do("POST", RPCRoute, `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}`, "Content-Type", "text/plain"); rec.Code != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain = %d", rec.Code)
	}
	if n := len(hs.LLM.Requests()); n != 0 {
		t.Fatalf("bad input made %d model calls", n)
	}
	// A durable run that no A2A message started is no task.
	code, started := hs.Post("/v1/runs", map[string]any{"prompt": "hello"})
	if res := hs.rpc("GetTask", map[string]any{"id": started["id"]}); code != http.StatusAccepted || rpcError(res) != a2a.CodeTaskNotFound {
		t.Errorf("GetTask of a /v1/runs run = %s", res.Raw)
	}
	// An answer that is not one: nothing recorded, the task still waits.
	id := hs.task(hs.send("refund order 42", nil)).Get("id").String()
	for _, part := range []map[string]any{
		{"text": "maybe later"},
		data(map[string]any{"approved": "yes"}),
		data(map[string]any{"approved": true, "args": []any{1}}),
		data(map[string]any{"approved": false, "reason": 7}),
	} {
		if res := hs.send("", map[string]any{"taskId": id}, part); rpcError(res) != a2a.CodeInvalidParams {
			t.Errorf("answer %v = %s", part, res.Raw)
		}
	}
	if res := hs.send("", map[string]any{"taskId": id, "contextId": "ctx_other"}, data(map[string]any{"approved": true})); rpcError(res) != a2a.CodeInvalidParams {
		t.Errorf("another context = %s", res.Raw)
	}
	if st := hs.task(hs.rpc("GetTask", map[string]any{"id": id})).Get("status.state").String(); st != "TASK_STATE_INPUT_REQUIRED" || hs.refunds.Load() != 0 {
		t.Fatalf("after bad answers: %s, refunds %d", st, hs.refunds.Load())
	}
}

// TestRacingAnswersOneWins: messages and the approval link answering one
// task at once: exactly one is recorded, the refund runs once.
func TestRacingAnswersOneWins(t *testing.T) {
	hs := newHarness(t, nil)
	task := hs.task(hs.send("refund order 42", nil))
	id := task.Get("id").String()
	link, _ := url.Parse(askData(task).Get("approveURL").String())
	body := mustJSON(t, map[string]any{"jsonrpc": "2.0", "id": 9, "method": "SendMessage",
		"params": map[string]any{"message": message("", map[string]any{"taskId": id}, data(map[string]any{"approved": true}))}})
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				if hs.Do("POST", link.RequestURI(), `{"ok":true}`).Code == http.StatusOK {
					won.Add(1)
				}
				return
			}
			if res := gjson.Parse(hs.Do("POST", RPCRoute, body).Body.String()); !res.Get("error").Exists() {
				won.Add(1)
			}
		}()
	}
	wg.Wait()
	hs.waitTask(id, "TASK_STATE_COMPLETED")
	if won.Load() != 1 || hs.refunds.Load() != 1 {
		t.Fatalf("%d answers won, %d refunds", won.Load(), hs.refunds.Load())
	}
}

// TestLostOutcomeIsInputRequired: a run stopped while its approved call
// ran (here: its journal continued by another Worker over a copy of the
// store) asks whether the call happened; the task is input-required with
// that question, and {"outcome": "happened"} completes it without running
// the call again.
func TestLostOutcomeIsInputRequired(t *testing.T) {
	hs := newHarness(t, nil)
	var charges atomic.Int32
	entered, release := make(chan struct{}, 1), make(chan struct{})
	t.Cleanup(func() { close(release) })
	hs.extra = []core.Tool{core.RequireApproval(core.NativeTool("charge", "Charge an order.", core.JSONSchema{
		"type": "object", "properties": map[string]any{"order": map[string]any{"type": "integer"}}, "required": []any{"order"},
	}, func(ctx context.Context, args map[string]any) (string, error) {
		charges.Add(1)
		entered <- struct{}{}
		<-release
		return "charged", nil
	}))}
	id := hs.task(hs.send(`call charge {"order":7}`, nil)).Get("id").String()
	res := hs.rpc("SendMessage", map[string]any{"message": message("approve", map[string]any{"taskId": id}), "configuration": map[string]any{"returnImmediately": true}})
	if st := hs.task(res).Get("status.state").String(); st != "TASK_STATE_WORKING" {
		t.Fatalf("answered: %s", res.Raw)
	}
	<-entered // the charge runs, and will not finish here

	// Another Worker over what the store held then: the journal up to the
	// call's start, no outcome.
	ctx := context.Background()
	texts, err := hs.store.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, _ := hs.store.Get(ctx, id, "")
	copied := worker.NewMemoryRunStore()
	if _, err := copied.Start(ctx, id, worker.RunStart{Entry: texts[0], Public: rec.Public, Meta: rec.Meta}); err != nil {
		t.Fatal(err)
	}
	for _, text := range texts[1:] {
		e, err := journal.Decode(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := copied.Record(ctx, id, worker.RunStep{Key: e.Key(), Entry: text}); err != nil {
			t.Fatal(err)
		}
	}
	second := hs.handler(copied)
	hs.Handler = second
	second.DriveRun(ctx, id)

	task := hs.task(hs.rpc("GetTask", map[string]any{"id": id}))
	ask := askData(task)
	if task.Get("status.state").String() != "TASK_STATE_INPUT_REQUIRED" || ask.Get("kind").String() != "outcome_unknown" || ask.Get("tool").String() != "charge" ||
		!strings.Contains(task.Get("status.message.parts.0.text").String(), `"outcome": "happened"`) {
		t.Fatalf("after the stop: %s", task.Raw)
	}
	if res := hs.send("", map[string]any{"taskId": id}, data(map[string]any{"approved": true, "args": map[string]any{"order": 8}})); rpcError(res) != a2a.CodeInvalidParams {
		t.Fatalf("an edit as the answer = %s", res.Raw)
	}
	done := hs.task(hs.send("", map[string]any{"taskId": id}, data(map[string]any{"outcome": "happened", "output": "charged order 7 (seen in the ledger)"})))
	if answerText(done) != "done: charged order 7 (seen in the ledger)" || charges.Load() != 1 || !done.Get("metadata.toolCalls.0.recorded").Bool() {
		t.Fatalf("after the answer: %s (charges %d)", done.Raw, charges.Load())
	}
}
