//go:build js && wasm

// Command gofloor is the Worker benchmark's Go floor (bench/worker.mjs): the
// one-tool-turn POST /v1/run of bench/floor-worker.mjs written by hand in Go,
// served through the Worker's own glue (worker/js/worker.mjs, cfworker.Serve,
// jsbridge's fetch). It does what a run must and nothing more: no toolkit, no
// loop rules, no hooks, metrics, journal or log line. The gap from the JS floor
// to it is what running Go on workerd costs; the gap from it to ours is what
// core and the worker package cost. ./build.sh bench builds it next to ours.
package main

import (
	"io"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/cfworker"
)

// tools is the add tool as OpenAI's chat completions declare it.
const tools = `[{"type":"function","function":{"name":"add","description":"Add two numbers.",` +
	`"parameters":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}}]`

func main() {
	cfworker.Serve(floor{opts: cfworker.Options()})
}

type floor struct{ opts worker.Options }

func (f floor) ServeHTTP(w httpx.ResponseWriter, r *httpx.Request) {
	switch {
	case r.URL.Path == "/healthz":
		reply(w, httpx.StatusOK, []byte(`{"status":"ok"}`+"\n"))
	case r.URL.Path == "/v1/run" && r.Method == httpx.MethodPost:
		f.run(w, r)
	default:
		reply(w, httpx.StatusNotFound, []byte(`{"error":"not found"}`+"\n"))
	}
}

// run is the model → add → model turn of floor-worker.mjs: the history is
// kept as the JSON text of the messages, and each reply's message is appended
// as the model wrote it.
func (f floor) run(w httpx.ResponseWriter, r *httpx.Request) {
	o := f.opts.Bind(r.Context(), f.opts)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		reply(w, httpx.StatusBadRequest, []byte(`{"error":"the body cannot be read"}`+"\n"))
		return
	}
	model, key, url := o.Getenv("LLM_MODEL"), o.Getenv("LLM_API_KEY"), o.Getenv("LLM_BASE_URL")+"/chat/completions"
	history := jsonx.AppendString([]byte(`{"role":"user","content":`), gjson.GetBytes(body, "prompt").String())
	history = append(history, '}')
	for range 5 {
		req := append(jsonx.AppendString([]byte(`{"model":`), model), `,"messages":[`...)
		req = append(append(append(req, history...), `],"tools":`...), tools...)
		req = append(req, '}')
		res, err := o.Transport.Do(r.Context(), &core.HTTPRequest{
			Method: "POST", URL: url, Body: req, ReadHeaders: []string{},
			Header: map[string]string{"content-type": "application/json", "authorization": "Bearer " + key},
		})
		if err != nil {
			reply(w, httpx.StatusBadGateway, append(jsonx.AppendString([]byte(`{"error":`), err.Error()), "}\n"...))
			return
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.Status != 200 {
			reply(w, httpx.StatusBadGateway, []byte(`{"error":"the model failed"}`+"\n"))
			return
		}
		msg := gjson.GetBytes(data, "choices.0.message")
		history = append(append(history, ','), msg.Raw...)
		calls := msg.Get("tool_calls").Array()
		if len(calls) == 0 {
			reply(w, httpx.StatusOK, append(jsonx.AppendString([]byte(`{"text":`), msg.Get("content").String()), "}\n"...))
			return
		}
		for _, c := range calls {
			args := gjson.Parse(c.Get("function.arguments").String())
			sum := args.Get("a").Float() + args.Get("b").Float()
			history = jsonx.AppendString(append(history, `,{"role":"tool","tool_call_id":`...), c.Get("id").String())
			history = jsonx.AppendString(append(history, `,"content":`...), strconv.FormatFloat(sum, 'f', -1, 64))
			history = append(history, '}')
		}
	}
	reply(w, httpx.StatusInternalServerError, []byte(`{"error":"too many turns"}`+"\n"))
}

func reply(w httpx.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}
