package a2aserve

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/internal/workertest"
	"github.com/toolnexus/wasm/worker/runs"
	"github.com/toolnexus/wasm/worker/teams"
)

// harness is a Worker with A2A, durable runs and teams mounted on the
// scripted model (workertest: "refund" → refund {order: 42}, "review
// order" → support hands billing the refund, a tool result → "done:
// <output>", else "hello"), with a count of refund executions.
type harness struct {
	*workertest.Harness
	t         *testing.T
	h         *worker.Handler
	store     *worker.MemoryRunStore
	refunds   atomic.Int32
	transport core.Transport
	extra     []core.Tool // added to the Worker's tools
	ids       int
}

func newHarness(t *testing.T, edit func(env map[string]string)) *harness {
	t.Helper()
	base := workertest.NewHarness(t, edit)
	hs := &harness{Harness: base, t: t, transport: workertest.Transport(base.LLM), store: worker.NewMemoryRunStore()}
	hs.h = hs.handler(hs.store)
	base.Handler = hs.h
	return hs
}

// handler is a Worker on the harness's settings over store.
func (hs *harness) handler(store *worker.MemoryRunStore) *worker.Handler {
	return worker.NewHandler(worker.Options{
		Getenv:    hs.Getenv,
		Transport: workertest.Swappable(&hs.transport),
		Tools: func(env worker.ToolEnv) []core.Tool {
			return append(workertest.CountRefunds(worker.DefaultTools(env), &hs.refunds), hs.extra...)
		},
		Runs: func() worker.RunStore { return store },
		Now:  hs.Now,
		Logf: hs.Logf,
	}, teams.Mount, runs.Mount, Mount)
}

// rpc sends one JSON-RPC request to POST /a2a and returns the response.
func (hs *harness) rpc(method string, params any) gjson.Result {
	hs.t.Helper()
	hs.ids++
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": hs.ids, "method": method, "params": params})
	if err != nil {
		hs.t.Fatal(err)
	}
	var auth []string
	if token := hs.Env["API_TOKEN"]; token != "" {
		auth = []string{"Authorization", "Bearer " + token}
	}
	rec := hs.Do(http.MethodPost, RPCRoute, string(b), auth...)
	if rec.Code != http.StatusOK {
		hs.t.Fatalf("%s = HTTP %d %s", method, rec.Code, rec.Body)
	}
	res := gjson.Parse(rec.Body.String())
	if res.Get("id").Int() != int64(hs.ids) || res.Get("jsonrpc").String() != "2.0" {
		hs.t.Fatalf("%s: not the JSON-RPC response to it: %s", method, rec.Body)
	}
	return res
}

// send is SendMessage of a user message with text and parts besides;
// extra goes into the message (taskId, contextId, metadata).
func (hs *harness) send(text string, extra map[string]any, parts ...any) gjson.Result {
	hs.t.Helper()
	return hs.rpc("SendMessage", map[string]any{"message": message(text, extra, parts...)})
}

func message(text string, extra map[string]any, parts ...any) map[string]any {
	all := []any{}
	if text != "" {
		all = append(all, map[string]any{"text": text})
	}
	msg := map[string]any{"messageId": "m-" + text, "role": "ROLE_USER", "parts": append(all, parts...)}
	for k, v := range extra {
		msg[k] = v
	}
	return msg
}

// data is a data part.
func data(v map[string]any) map[string]any { return map[string]any{"data": v} }

// task reads SendMessage's task, failing on an error.
func (hs *harness) task(res gjson.Result) gjson.Result {
	hs.t.Helper()
	if res.Get("error").Exists() {
		hs.t.Fatalf("JSON-RPC error: %s", res.Raw)
	}
	t := res.Get("result.task")
	if !t.Exists() {
		t = res.Get("result")
	}
	return t
}

// rpcError is the code of a JSON-RPC error response (0: none).
func rpcError(res gjson.Result) int { return int(res.Get("error.code").Int()) }

// waitTask polls GetTask until its state is want.
func (hs *harness) waitTask(id, want string) gjson.Result {
	hs.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		t := hs.task(hs.rpc("GetTask", map[string]any{"id": id}))
		if t.Get("status.state").String() == want {
			return t
		}
		if time.Now().After(deadline) {
			hs.t.Fatalf("task %s stayed %s, want %s", id, t.Raw, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// askData is the data part of a task's input-required status message.
func askData(t gjson.Result) gjson.Result {
	for _, p := range t.Get("status.message.parts").Array() {
		if p.Get("data").IsObject() {
			return p.Get("data")
		}
	}
	return gjson.Result{}
}

// answerText is a completed task's answer artifact's text.
func answerText(t gjson.Result) string {
	return t.Get(`artifacts.#(artifactId=="answer").parts.0.text`).String()
}

// sseResults reads the JSON-RPC results of a server-sent event stream.
func sseResults(t *testing.T, body string) []gjson.Result {
	t.Helper()
	var out []gjson.Result
	for _, block := range strings.Split(body, "\n\n") {
		for _, line := range strings.Split(block, "\n") {
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				r := gjson.Parse(rest)
				if r.Get("jsonrpc").String() != "2.0" || !r.Get("result").Exists() {
					t.Fatalf("stream event %s", rest)
				}
				out = append(out, r.Get("result"))
			}
		}
	}
	return out
}
