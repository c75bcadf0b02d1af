//go:build !js

package gateway

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/internal/workertest"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// TestChatCompletionsStreamIsIncremental: the gateway writes each chunk as
// the provider's delta arrives. The provider sends half its reply and then
// waits until the client has read the first chunk (or 5 s: the test then
// fails), so a gateway that buffered the reply could not pass.
func TestChatCompletionsStreamIsIncremental(t *testing.T) {
	gate := make(chan struct{})
	openedByClient := make(chan bool, 1)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta string) {
			fmt.Fprintf(w, "data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", delta)
			w.(http.Flusher).Flush()
		}
		chunk(`{"role":"assistant","content":"Hel"}`)
		select {
		case <-gate:
			openedByClient <- true
		case <-time.After(5 * time.Second):
			openedByClient <- false
		}
		chunk(`{"content":"lo"}`)
		chunk(`{"tool_calls":[{"index":0,"id":"call_9","type":"function","function":{"name":"add","arguments":"{\"a\":"}}]}`)
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"2}"}}]}`)
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer upstream.Close()
	env := map[string]string{"LLM_BASE_URL": upstream.URL + "/v1", "LLM_MODEL": "m", "LLM_API_KEY": workertest.APIKey, "STATE_SECRET": workertest.Secret}
	gw := httptest.NewServer(nethttp.Handler(worker.NewHandler(worker.Options{Getenv: func(k string) string { return env[k] }, Logf: func(string, ...any) {}}, Mount)))
	defer gw.Close()

	res, err := http.Post(gw.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	var body strings.Builder
	for sc.Scan() {
		body.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), `"content":"Hel"`) {
			close(gate)
		}
	}
	if !<-openedByClient {
		t.Fatalf("the first chunk did not reach the client before the provider finished:\n%s", body.String())
	}
	chunks, done := chatChunks(t, body.String())
	text, calls, finish, _ := assembled(chunks)
	if !done || text != "Hello" || finish != "tool_calls" || len(calls) != 1 ||
		calls[0]["id"] != "call_9" || calls[0]["name"] != "add" || calls[0]["arguments"] != `{"a":2}` {
		t.Fatalf("text %q calls %v finish %q done %v\n%s", text, calls, finish, done, body.String())
	}
}
